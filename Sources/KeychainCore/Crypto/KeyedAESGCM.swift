internal import CCryptoBoringSSL
import Crypto

/// AES-GCM under one key, set up once: BoringSSL's AEAD context holds the expanded key and
/// the GHASH key, which every seal and open would otherwise derive again (with an allocation
/// and a free) before its own work; about 1,300 instructions of a find's one open.
///
/// ``RecordSealer`` seals and opens with it. The class keys keep theirs for as long as the
/// key is held (``ClassKeyAvailability``); any other key gets one for the call.
/// BoringSSL lets seals and opens share one context from several threads at once.
final class KeyedAESGCM: Sendable {
    /// Read-only after `init`: seal and open take it as const.
    private nonisolated(unsafe) let context: UnsafeMutablePointer<EVP_AEAD_CTX>

    /// The tag length of every sealed blob.
    static let tagCount = 16

    /// nil for a key of a size AES-GCM does not take (128, 192 or 256 bits, as `AES.GCM`).
    init?(key: SymmetricKey) {
        let aead: OpaquePointer?
        switch key.bitCount {
        case 128: aead = CCryptoBoringSSL_EVP_aead_aes_128_gcm()
        case 192: aead = CCryptoBoringSSL_EVP_aead_aes_192_gcm()
        case 256: aead = CCryptoBoringSSL_EVP_aead_aes_256_gcm()
        default: return nil
        }
        let context = key.withUnsafeBytes { key in
            CCryptoBoringSSL_EVP_AEAD_CTX_new(aead, key.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                              key.count, Self.tagCount)
        }
        guard let context else { return nil }
        self.context = context
    }

    deinit {
        // OPENSSL_free, under EVP_AEAD_CTX_free, zeroes the context (and so the expanded
        // key) before freeing it.
        CCryptoBoringSSL_EVP_AEAD_CTX_free(context)
    }

    /// Runs `body` with the context.
    func withContext<Result>(_ body: (UnsafePointer<EVP_AEAD_CTX>) -> Result) -> Result {
        body(context)
    }
}
