import Foundation

/// One attribute of an item class: its four-character code and the kind of value it takes.
package struct Attribute: Sendable, Hashable {
    /// How an attribute's value is read, compared and defaulted.
    package enum Kind: Sendable, Hashable {
        /// String, Data or Number, given back in the caller's type; compared on its bytes.
        case text
        /// A byte string Apple stores as data (`klbl`, and the certificate attributes taken
        /// from its DER): read, compared and hashed exactly as ``text``, so values callers
        /// stored as strings keep their identity, but always handed back as Data.
        case data
        /// Number or Bool; a numeric string or a four-character code also converts.
        case number
        /// Date only.
        case date
        /// The access group: a String.
        case accessGroup
        /// `kSecAttrAccessible`: one of the seven values (any other is errSecParam).
        case accessibility
        /// `kSecAttrSynchronizable`: stored as a number 0 or 1.
        case synchronizable
        /// `kSecAttrAccessControl`: the flags of the item's access control, a number (its
        /// protection is `pdmn`).
        case accessControl
        /// Accepted and ignored (`kSecUseDataProtectionKeychain`).
        case ignored
    }

    package let code: String
    package let kind: Kind

    init(_ code: String, _ kind: Kind) {
        self.code = code
        self.kind = kind
    }

    /// The bytes that equality, uniqueness and index hashes use: text as its UTF-8 or raw
    /// bytes (so String "x" and Data "x" are equal), numbers as 8 big-endian bytes, dates as
    /// the bits of their reference-date interval.
    package func canonicalBytes(of value: AttributeValue) throws(KeychainError) -> Data {
        switch kind {
        case .text, .data:
            switch value {
            case .string(let string): return Data(utf8Of: string)
            case .data(let data): return data
            case .number(let number): return Data(utf8Of: String(number))
            case .bool(let flag): return Data(utf8Of: flag ? "1" : "0")
            case .date: throw .param("attribute '\(code)' takes a string, data or number, not a date")
            }
        case .number, .synchronizable, .accessControl:
            return Self.bytes(of: try integer(of: value))
        case .date:
            guard case .date(let date) = value else {
                throw .param("attribute '\(code)' takes a date")
            }
            return Self.bytes(of: date)
        case .accessGroup:
            guard case .string(let group) = value, !group.isEmpty else {
                throw .param("attribute '\(code)' takes a non-empty string")
            }
            return Data(utf8Of: group)
        case .accessibility:
            guard case .string(let raw) = value, Accessibility(rawValue: raw) != nil else {
                throw .param("attribute '\(code)' takes one of the kSecAttrAccessible values")
            }
            return Data(utf8Of: raw)
        case .ignored:
            return Data()
        }
    }

    /// The canonical bytes a primary-key field has when the item does not set it, so that an
    /// absent account and `acct = ""` are the same key: `""` for text, `0` for numbers and dates.
    var defaultCanonicalBytes: Data {
        switch kind {
        case .number, .synchronizable: Self.bytes(of: Int64(0))
        case .date: Self.bytes(of: Date(timeIntervalSinceReferenceDate: 0))
        default: Data()
        }
    }

    /// The integer a number attribute holds: numbers, booleans, numeric strings and
    /// four-character codes such as `"htps"` convert; anything else is errSecParam.
    func integer(of value: AttributeValue) throws(KeychainError) -> Int64 {
        switch value {
        case .number(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        case .string(let string):
            if let number = Int64(string) { return number }
            let bytes = Array(string.utf8)
            if bytes.count == 4 {
                return bytes.reduce(Int64(0)) { $0 << 8 | Int64($1) }
            }
            throw .param("attribute '\(code)' takes a number or a four-character code")
        case .data, .date:
            throw .param("attribute '\(code)' takes a number")
        }
    }

    static func bytes(of number: Int64) -> Data {
        withUnsafeBytes(of: number.bigEndian) { Data($0) }
    }

    static func bytes(of date: Date) -> Data {
        bytes(of: Int64(bitPattern: date.timeIntervalSinceReferenceDate.bitPattern))
    }
}
