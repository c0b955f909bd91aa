import Crypto
import Foundation
import Security

// Keys that Apple's "Storing CryptoKit Keys in the Keychain" keeps as generic passwords:
// their raw representation is the item's secret. Stored through a ``Keychain``, like any other
// value, so the items are the ones Apple's sample code reads and writes on Apple platforms.

extension SymmetricKey: KeychainValue {
    /// The key's bytes.
    public func keychainData() throws(KeychainError) -> Data {
        withUnsafeBytes { Data($0) }
    }

    /// The key with the stored bytes; an empty secret throws `errSecDecode`.
    public init(keychainData data: Data) throws(KeychainError) {
        guard !data.isEmpty else {
            throw KeychainError(status: errSecDecode, reason: "the stored value is not a symmetric key")
        }
        self.init(data: data)
    }
}

extension Curve25519.Signing.PrivateKey: KeychainValue {
    /// The key's 32-byte raw representation.
    public func keychainData() throws(KeychainError) -> Data { rawRepresentation }

    /// The key of a 32-byte raw representation; anything else throws `errSecDecode`.
    public init(keychainData data: Data) throws(KeychainError) {
        do {
            try self.init(rawRepresentation: data)
        } catch {
            throw KeychainError(status: errSecDecode, reason: "the stored value is not a Curve25519 signing key")
        }
    }
}

extension Curve25519.KeyAgreement.PrivateKey: KeychainValue {
    /// The key's 32-byte raw representation.
    public func keychainData() throws(KeychainError) -> Data { rawRepresentation }

    /// The key of a 32-byte raw representation; anything else throws `errSecDecode`.
    public init(keychainData data: Data) throws(KeychainError) {
        do {
            try self.init(rawRepresentation: data)
        } catch {
            throw KeychainError(status: errSecDecode, reason: "the stored value is not a Curve25519 key-agreement key")
        }
    }
}
