internal import CCryptoBoringSSL
import Crypto
import Foundation
import Synchronization

/// HMAC-SHA256 under one key, set up once: BoringSSL's HMAC (the one swift-crypto ships)
/// keeps the key's inner and outer hash states, and starts each message from them.
///
/// The index hashes take one HMAC per searched or stored attribute, and sync one per record
/// it sends or receives (the item id). swift-crypto's `HMAC` value, copied per message, cost
/// about 11,000 instructions for a short one, most of it generic dispatch and copies of its
/// digest contexts; this costs the two SHA-256 blocks and little more. `IndexHasherTests`
/// checks it against swift-crypto's HMAC.
package final class KeyedHMACSHA256: Sendable {
    /// The keyed context; each message resets it to the keyed state. Used under `lock`
    /// only, one message at a time.
    private nonisolated(unsafe) let context: UnsafeMutablePointer<HMAC_CTX>
    private let lock = Mutex(())

    package init(key: SymmetricKey) {
        guard let context = CCryptoBoringSSL_HMAC_CTX_new() else {
            // Only an allocation failure, which the process does not survive anyway.
            fatalError("HMAC_CTX_new: out of memory")
        }
        let keyed = key.withUnsafeBytes { key in
            CCryptoBoringSSL_HMAC_Init_ex(context, key.baseAddress, key.count, CCryptoBoringSSL_EVP_sha256(), nil)
        }
        precondition(keyed == 1, "HMAC_Init_ex with SHA-256 failed")
        self.context = context
    }

    deinit {
        // HMAC_CTX_free cleanses the key's hash states before freeing them.
        CCryptoBoringSSL_HMAC_CTX_free(context)
    }

    /// The 32-byte HMAC of `message`.
    package func authenticationCode(for message: UnsafeRawBufferPointer) -> Data {
        var code = Data(count: Int(SHA256.byteCount))
        code.withUnsafeMutableBytes { out in
            lock.withLock { _ in
                var length: UInt32 = 0
                // A NULL key with the same hash function starts again from the kept key.
                let done = CCryptoBoringSSL_HMAC_Init_ex(context, nil, 0, nil, nil) == 1
                    && CCryptoBoringSSL_HMAC_Update(context, message.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                                    message.count) == 1
                    && CCryptoBoringSSL_HMAC_Final(context, out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                                   &length) == 1
                precondition(done && Int(length) == SHA256.byteCount, "HMAC-SHA256 failed")
            }
        }
        return code
    }
}
