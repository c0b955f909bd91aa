/// A keychain's name as one element of a collection's object path
/// (`/org/freedesktop/secrets/collection/<element>`): D-Bus allows only `[A-Za-z0-9_]` there,
/// and a keychain's name may hold any character but `/`.
///
/// ASCII letters and digits stand for themselves; every other byte of the name's UTF-8 is
/// `_` and two lowercase hex digits (`_` itself is `_5f`, a space `_20`). Only that spelling
/// is read back, so that one keychain has one path.
enum CollectionPathName {
    static func encode(_ name: String) -> String {
        var element = ""
        for byte in name.utf8 {
            if isPlain(byte) {
                element.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                element += "_" + String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
            }
        }
        return element
    }

    /// The keychain name `element` spells, or nil when it is not an encoding made by
    /// ``encode(_:)`` of a name (empty, a stray `_`, uppercase or needless escapes, invalid
    /// UTF-8, a `/`).
    static func decode<Element: StringProtocol>(_ element: Element) -> String? {
        let digits = Array(element.utf8)
        guard !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            let byte = digits[index]
            if isPlain(byte) {
                bytes.append(byte)
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "_"), index + 2 < digits.count,
                  let high = nibble(digits[index + 1]), let low = nibble(digits[index + 2]) else { return nil }
            let escaped = high << 4 | low
            guard !isPlain(escaped), escaped != UInt8(ascii: "/"), escaped != 0 else { return nil }
            bytes.append(escaped)
            index += 3
        }
        guard let name = String(validating: bytes, as: UTF8.self) else { return nil }
        return name
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: false
        }
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
