internal import Crypto
import Foundation

/// A digest the caller computed, for the `...Digest...` algorithms: swift-crypto's ECDSA
/// signs a `Digest` by its bytes, so the caller's digest is signed as given, never hashed
/// again.
struct SuppliedDigest: Digest {
    let bytes: [UInt8]

    init<Bytes: DataProtocol>(_ bytes: Bytes) {
        self.bytes = Array(bytes)
    }

    /// Not meaningful: the length is the caller's. swift-crypto's ECDSA reads the bytes
    /// (`withUnsafeBytes`), never this.
    static var byteCount: Int { 0 }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    func makeIterator() -> IndexingIterator<[UInt8]> {
        bytes.makeIterator()
    }

    /// The kind of value, never the bytes.
    var description: String { "SuppliedDigest(\(bytes.count) bytes)" }
}
