import Crypto
import Foundation

/// AES-256-GCM with associated data: what a record's sealed blobs and wrapped keys use.
/// A blob opened under other associated data, or altered, fails with errSecDecode.
enum RecordSealer {
    static func seal(_ plaintext: Data, with key: SymmetricKey, binding aad: Data) throws(KeychainError) -> Data {
        do {
            guard let combined = try AES.GCM.seal(plaintext, using: key, authenticating: aad).combined else {
                throw KeychainError.io("AES-GCM produced no combined form")
            }
            return combined
        } catch {
            throw .io("sealing failed")
        }
    }

    static func open(_ sealed: Data, with key: SymmetricKey, binding aad: Data) throws(KeychainError) -> Data {
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key, authenticating: aad)
        } catch {
            throw .decode
        }
    }
}
