import Foundation

/// Writes a byte string of known length front to back, in place, for the encoders of
/// associated data, records and identity messages, which run on every call, and of
/// KeychainSync's messages. Appending to an array field by field cost more than the AES-GCM
/// call the bytes feed (measured with callgrind); here each field is one copy.
package struct ByteWriter {
    private var cursor: UnsafeMutableRawPointer
    private let end: UnsafeMutableRawPointer

    private init(_ buffer: UnsafeMutableRawBufferPointer) {
        // An empty buffer may have no address; nothing is written to it.
        cursor = buffer.baseAddress ?? UnsafeMutableRawPointer(bitPattern: 1)!
        end = cursor + buffer.count
    }

    /// `count` bytes written by `body`, which must write exactly that many.
    package static func data(count: Int, _ body: (inout ByteWriter) -> Void) -> Data {
        var data = Data(count: count)
        data.withUnsafeMutableBytes { fill($0, body) }
        return data
    }

    /// Fills `buffer` with `body`, which must write exactly its count of bytes.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer, _ body: (inout ByteWriter) -> Void) {
        var writer = ByteWriter(buffer)
        body(&writer)
        precondition(writer.cursor == writer.end, "ByteWriter: wrote fewer bytes than counted")
    }

    /// Writes `count` bytes with `write` into a temporary buffer and hands them to `use`:
    /// for bytes that are only hashed, which need no allocation of their own.
    package static func withBytes<R>(count: Int, _ write: (inout ByteWriter) -> Void,
                             _ use: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeTemporaryAllocation(byteCount: max(count, 1), alignment: 1) { buffer in
            var writer = ByteWriter(UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]))
            write(&writer)
            precondition(writer.cursor == writer.end, "ByteWriter: wrote fewer bytes than counted")
            return use(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    package mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        precondition(end - cursor >= bytes.count, "ByteWriter: wrote more bytes than counted")
        cursor.copyMemory(from: source, byteCount: bytes.count)
        cursor += bytes.count
    }

    package mutating func write(_ data: Data) {
        data.withUnsafeBytes { write($0) }
    }

    package mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    package mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    package mutating func write(byte: UInt8) {
        withUnsafeBytes(of: byte) { write($0) }
    }

    package mutating func write(bigEndian value: Int64) {
        withUnsafeBytes(of: value.bigEndian) { write($0) }
    }

    package mutating func write(bigEndian value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { write($0) }
    }
}
