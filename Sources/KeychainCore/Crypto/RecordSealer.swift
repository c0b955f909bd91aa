import Crypto
import Foundation

/// AES-256-GCM with associated data: what a record's sealed blobs and wrapped keys use.
/// A blob opened under other associated data, or altered, fails with errSecDecode.
enum RecordSealer {
    /// Seals under a fresh random nonce, or under `nonce`: 12 bytes the caller drew at random
    /// (see ``RandomBytes``), never used before with this key.
    static func seal(_ plaintext: some DataProtocol, with key: SymmetricKey, binding aad: some DataProtocol,
                     nonce: ArraySlice<UInt8>? = nil) throws(KeychainError) -> Data {
        do {
            let nonce = try nonce.map { try AES.GCM.Nonce(data: $0) } ?? AES.GCM.Nonce()
            guard let combined = try AES.GCM.seal(plaintext, using: key, nonce: nonce, authenticating: aad).combined else {
                throw KeychainError.io("AES-GCM produced no combined form")
            }
            return combined
        } catch {
            throw .io("sealing failed")
        }
    }

    static func open(_ sealed: Data, with key: SymmetricKey, binding aad: some DataProtocol) throws(KeychainError) -> Data {
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key, authenticating: aad)
        } catch {
            throw .decode
        }
    }
}
