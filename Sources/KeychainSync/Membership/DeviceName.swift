/// The rules for a device's name, which other members print in their lists: 1 to 255 bytes of
/// UTF-8 with no control, format or line-separator characters, so that a name can never carry
/// terminal escapes or reorder the text around it.
enum DeviceName {
    static let maximumBytes = 255

    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumBytes && name.unicodeScalars.allSatisfy(isAllowed)
    }

    /// `name` with every character the rules refuse replaced by `?` and cut to the byte limit
    /// (on a character boundary); "device" when nothing remains.
    static func sanitized(_ name: String) -> String {
        var result = ""
        for character in name {
            let safe = character.unicodeScalars.allSatisfy(isAllowed) ? String(character) : "?"
            guard result.utf8.count + safe.utf8.count <= maximumBytes else { break }
            result += safe
        }
        return result.isEmpty ? "device" : result
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse: false
        default: true
        }
    }
}
