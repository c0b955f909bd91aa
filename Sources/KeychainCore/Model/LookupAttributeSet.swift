import Foundation

/// A set of lookup attributes (name/value strings) as a generic password's generic data
/// (`gena`) may begin with: what the Secret Service provider stores for an item, in one
/// canonical encoding, so that the keychain can index each pair (``LookupPairTable``)
/// and find items by any of their attributes without opening them.
///
/// The encoding: the 4 bytes `SSA1`, the number of pairs as a 32-bit big-endian integer,
/// then each pair in ascending byte order of its name, as the name's UTF-8 length (32-bit
/// big-endian) and bytes, then the value's. One set has exactly one encoding; what follows
/// it in the generic data (the provider's content type) is not the set's.
package struct LookupAttributeSet: Equatable, Sendable {
    package let values: [String: String]

    package init(_ values: [String: String]) {
        self.values = values
    }

    /// The canonical encoding.
    package var encoded: Data {
        var bytes = Data(Self.magic)
        Self.append(UInt32(values.count), to: &bytes)
        for name in values.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            for text in [name, values[name] ?? ""] {
                Self.append(UInt32(text.utf8.count), to: &bytes)
                bytes.append(contentsOf: Array(text.utf8))
            }
        }
        return bytes
    }

    /// The set encoded at `start` of `bytes`, with `start` moved past it; nil when none
    /// starts there. Each string is at most `maximumBytes` long and a set holds at most
    /// `maximumCount` pairs; a set that is not in its one canonical encoding (names out of
    /// order or repeated, a string that is not UTF-8) is not a set.
    package static func decode(_ bytes: [UInt8], at start: inout Int, maximumCount: Int = .max,
                               maximumBytes: Int = .max) -> LookupAttributeSet? {
        guard bytes.count - start >= 8, Array(bytes[start..<start + 4]) == magic else { return nil }
        var offset = start + 4
        func integer() -> Int? {
            guard bytes.count - offset >= 4 else { return nil }
            let value = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            return value
        }
        func text() -> (bytes: ArraySlice<UInt8>, string: String)? {
            guard let length = integer(), length <= maximumBytes, bytes.count - offset >= length else { return nil }
            let slice = bytes[offset..<offset + length]
            offset += length
            guard let string = String(validating: slice, as: UTF8.self) else { return nil }
            return (slice, string)
        }
        // Each pair takes at least 8 bytes: a count beyond what is left is not a set.
        guard let count = integer(), count <= maximumCount, count <= (bytes.count - offset) / 8 else { return nil }
        var values: [String: String] = [:]
        var previous: ArraySlice<UInt8>?
        for _ in 0..<count {
            guard let name = text(), let value = text() else { return nil }
            if let previous, !previous.lexicographicallyPrecedes(name.bytes) { return nil }
            previous = name.bytes
            values[name.string] = value.string
        }
        start = offset
        return LookupAttributeSet(values)
    }

    /// The set that generic data begins with, or nil when it does not begin with one.
    package init?(genericData data: Data) {
        var offset = 0
        guard let set = Self.decode([UInt8](data), at: &offset) else { return nil }
        self = set
    }

    private static let magic: [UInt8] = Array("SSA1".utf8)

    /// A 32-bit big-endian integer, as the encoding writes lengths and counts.
    package static func append(_ value: UInt32, to bytes: inout Data) {
        bytes.append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
