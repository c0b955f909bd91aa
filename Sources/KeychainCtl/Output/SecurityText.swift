import Foundation
import Security

/// Values written the way `security` writes them, byte for byte, so that scripts that parse
/// its output parse ours.
enum SecurityText {
    /// Bytes as `security` prints any buffer: printable ASCII other than `\` in quotes,
    /// anything else as octal escapes (`\000`); when any byte is not printable, first `0x`
    /// and the bytes in uppercase hex, then a space, and a second space when quoted text
    /// follows. `20240101120000Z\0` prints as `0x3230...5A00  "20240101120000Z\000"`;
    /// four zero bytes as `0x00000000 `, trailing space included.
    static func buffer(_ bytes: some Collection<UInt8>) -> String {
        let hasText = bytes.contains(where: isQuotable)
        let hasOther = bytes.contains { !isQuotable($0) }
        var text = ""
        if hasOther {
            text += "0x" + HexDigits.string(bytes, uppercase: true) + (hasText ? "  " : " ")
        }
        if hasText {
            text += "\""
            for byte in bytes {
                if isQuotable(byte) {
                    text.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    text += "\\" + String(byte >> 6) + String(byte >> 3 & 7) + String(byte & 7)
                }
            }
            text += "\""
        }
        return text
    }

    /// A password as `find-*-password -w` prints it: as it is when every byte is printable
    /// ASCII, else all of it in lowercase hex, so that the line is always safe to print.
    static func password(_ data: Data) -> String {
        if data.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) { return String(decoding: data, as: UTF8.self) }
        return HexDigits.string(data)
    }

    /// A number as `security` prints a 4-byte attribute: its bytes, most significant first,
    /// through ``buffer(_:)`` (`htps` shows as "htps", 0 as `0x00000000 `).
    static func uint32(_ value: UInt32) -> String {
        buffer([24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) })
    }

    /// A date as a `<timedate>` attribute holds it: `YYYYMMDDhhmmssZ` and a NUL, in UTC;
    /// nil for a date no calendar shows.
    static func timedate(_ date: Date) -> [UInt8]? {
        UTCTime(date).map { Array(($0.compact + "Z").utf8) + [0] }
    }

    private static func isQuotable(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "\\")
    }
}
