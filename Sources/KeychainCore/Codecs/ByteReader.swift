/// Reads a byte string front to back for the decoders of stored and archived forms. Every
/// read checks its bound, so damaged input is errSecDecode, never a crash.
package struct ByteReader {
    package let bytes: [UInt8]
    package private(set) var offset = 0

    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var isAtEnd: Bool { offset >= bytes.count }

    package mutating func byte() throws(KeychainError) -> UInt8 {
        guard let byte = try take(1).first else { throw .decode }
        return byte
    }

    /// A 4-byte big-endian length, as the encoders write before a payload.
    package mutating func length() throws(KeychainError) -> Int {
        try take(4).reduce(0) { $0 << 8 | Int($1) }
    }

    package mutating func take(_ count: Int) throws(KeychainError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw .decode }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }
}
