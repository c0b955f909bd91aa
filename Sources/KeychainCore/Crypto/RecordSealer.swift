internal import CCryptoBoringSSL
import Crypto
import Foundation

/// AES-GCM with associated data: what a record's sealed blobs and wrapped keys use, and
/// sync's records, in CryptoKit's combined form (the 12-byte nonce, the ciphertext, the
/// 16-byte tag).
/// A blob opened under other associated data, or altered, fails with errSecDecode.
///
/// Sealed and opened by BoringSSL's AEAD, the one swift-crypto's `AES.GCM` calls, called
/// directly: every add seals twice and every find opens once, and swift-crypto's generic
/// wrapper (slicing the combined form, copying inputs and outputs) cost about 5,000
/// instructions a seal on top of the cipher's own work. The blobs are byte for byte what
/// `AES.GCM` makes and opens, which `RecordSealerTests` checks in both directions.
package enum RecordSealer {
    private static let nonceCount = 12
    private static let tagCount = KeyedAESGCM.tagCount

    /// Seals under a fresh random nonce, or under `nonce`: 12 bytes the caller drew at random
    /// (see ``RandomBytes``), never used before with this key.
    package static func seal(_ plaintext: some DataProtocol, with key: SymmetricKey, binding aad: some DataProtocol,
                             nonce: ArraySlice<UInt8>? = nil) throws(KeychainError) -> Data {
        guard let cipher = KeyedAESGCM(key: key) else { throw .io("sealing failed") }
        return try seal(plaintext, with: cipher, binding: aad, nonce: nonce)
    }

    /// ``seal(_:with:binding:nonce:)`` under a key set up already.
    static func seal(_ plaintext: some DataProtocol, with cipher: KeyedAESGCM, binding aad: some DataProtocol,
                     nonce: ArraySlice<UInt8>? = nil) throws(KeychainError) -> Data {
        let nonce = nonce.map { Array($0) } ?? Array(AES.GCM.Nonce())
        guard nonce.count == nonceCount else { throw .io("sealing failed") }
        let sealed: Data? = withContiguousBytes(of: plaintext) { plaintext in
            withContiguousBytes(of: aad) { aad in
                cipher.withContext { context in
                    var sealed = Data(count: nonceCount + plaintext.count + tagCount)
                    let done = sealed.withUnsafeMutableBytes { out in
                        nonce.withUnsafeBytes { out.copyMemory(from: $0) }
                        var written = 0
                        let body = out.baseAddress!.advanced(by: nonceCount).assumingMemoryBound(to: UInt8.self)
                        return CCryptoBoringSSL_EVP_AEAD_CTX_seal(
                            context, body, &written, out.count - nonceCount, nonce, nonceCount,
                            bytes(plaintext), plaintext.count, bytes(aad), aad.count) == 1
                            && written == out.count - nonceCount
                    }
                    return done ? sealed : nil
                }
            }
        }
        guard let sealed else {
            CCryptoBoringSSL_ERR_clear_error()
            throw .io("sealing failed")
        }
        return sealed
    }

    package static func open(_ sealed: Data, with key: SymmetricKey,
                             binding aad: some DataProtocol) throws(KeychainError) -> Data {
        guard sealed.count >= nonceCount + tagCount else { throw .decode }
        guard let cipher = KeyedAESGCM(key: key) else { throw .decode }
        return try open(sealed, with: cipher, binding: aad)
    }

    /// ``open(_:with:binding:)`` under a key set up already.
    static func open(_ sealed: Data, with cipher: KeyedAESGCM, binding aad: some DataProtocol) throws(KeychainError) -> Data {
        guard sealed.count >= nonceCount + tagCount else { throw .decode }
        let opened: Data? = sealed.withUnsafeBytes { sealed in
            withContiguousBytes(of: aad) { aad in
                cipher.withContext { context -> Data? in
                    var plaintext = Data(count: sealed.count - nonceCount - tagCount)
                    let body = sealed.baseAddress!.advanced(by: nonceCount).assumingMemoryBound(to: UInt8.self)
                    let done = plaintext.withUnsafeMutableBytes { out in
                        var written = 0
                        return CCryptoBoringSSL_EVP_AEAD_CTX_open(
                            context, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &written, out.count,
                            sealed.baseAddress!.assumingMemoryBound(to: UInt8.self), nonceCount,
                            body, sealed.count - nonceCount, bytes(aad), aad.count) == 1
                            && written == out.count
                    }
                    guard done else {
                        // BoringSSL decrypts before it checks the tag: what it wrote may be
                        // the real plaintext, opened under the wrong associated data.
                        plaintext.resetBytes(in: 0..<plaintext.count)
                        return nil
                    }
                    return plaintext
                }
            }
        }
        guard let opened else {
            CCryptoBoringSSL_ERR_clear_error()
            throw .decode
        }
        return opened
    }

    /// `data`'s bytes in one piece: in place when it is contiguous (Data, arrays, buffers),
    /// else copied.
    private static func withContiguousBytes<Result>(of data: some DataProtocol,
                                                    _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = data.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(data).withUnsafeBytes(body)
    }

    /// A buffer's start for BoringSSL, which takes no address for an empty buffer.
    private static func bytes(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}
