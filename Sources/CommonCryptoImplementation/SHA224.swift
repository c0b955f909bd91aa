import CommonCrypto
import Crypto
// swift-crypto offers no SHA-224 (it has PBKDF2 over SHA-224, internally), so SHA-224 comes from
// the BoringSSL that swift-crypto builds and ships, never from a hash of our own. An internal
// import: no public declaration of this module shows BoringSSL's types.
internal import CCryptoBoringSSL
#if canImport(Glibc)
import Glibc
#endif

/// SHA-224 as a swift-crypto hash function, so that `HMAC<SHA224>` is swift-crypto's HMAC.
struct SHA224: HashFunction {
    static let blockByteCount = 64

    /// A SHA-224 digest: 28 bytes.
    struct Digest: Crypto.Digest {
        static let byteCount = 28
        let bytes: [UInt8]

        func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try bytes.withUnsafeBytes(body)
        }
        func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
        var description: String { "SHA224 digest" }
    }

    /// BoringSSL's context: a plain C structure, so copying this value copies the hash.
    private var context = SHA256_CTX()

    init() {
        _ = CCryptoBoringSSL_SHA224_Init(&context)
    }

    mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        guard let base = bufferPointer.baseAddress, bufferPointer.count > 0 else { return }
        _ = CCryptoBoringSSL_SHA224_Update(&context, base, bufferPointer.count)
    }

    func finalize() -> Digest {
        var copy = context
        var output = [UInt8](repeating: 0, count: Digest.byteCount)
        output.withUnsafeMutableBufferPointer { _ = CCryptoBoringSSL_SHA224_Final($0.baseAddress, &copy) }
        // The copy holds the hash's state; clear it.
        withUnsafeMutableBytes(of: &copy) { explicit_bzero($0.baseAddress!, $0.count) }
        return Digest(bytes: output)
    }
}
