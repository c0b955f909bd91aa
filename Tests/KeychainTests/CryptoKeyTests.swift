import Crypto
import Foundation
import Keychain
import Security
import Testing
import TestSupport

/// CryptoKit keys in the keychain, stored as Apple's "Storing CryptoKit Keys in the Keychain"
/// stores them: symmetric and Curve25519 keys as generic passwords whose secret is the raw
/// representation, NIST keys as key items made with `SecKeyCreateWithData`.
@Suite struct CryptoKeyTests {
    let keychainFiles = PrivateKeychain()
    let keychain = Keychain(service: "com.example.keys")

    /// The article's generic-password format: the secret is the key's raw representation,
    /// which Apple's sample code reads back with `init(rawRepresentation:)`.
    @Test func rawRepresentationKeysAreStoredAsTheirBytes() throws {
        try keychainFiles.run {
            let symmetric = SymmetricKey(size: .bits256)
            let signing = Curve25519.Signing.PrivateKey()
            let agreement = Curve25519.KeyAgreement.PrivateKey()
            try keychain.set(symmetric, forKey: "symmetric")
            try keychain.set(signing, forKey: "signing")
            try keychain.set(agreement, forKey: "agreement")

            #expect(try keychain.data(forKey: "symmetric") == symmetric.withUnsafeBytes { Data($0) })
            #expect(try keychain.data(forKey: "signing") == signing.rawRepresentation)
            #expect(try keychain.data(forKey: "agreement") == agreement.rawRepresentation)

            let readSigning = try #require(try keychain.value(forKey: "signing", as: Curve25519.Signing.PrivateKey.self))
            let message = Data("a message".utf8)
            #expect(signing.publicKey.isValidSignature(try readSigning.signature(for: message), for: message))
            let readSymmetric = try #require(try keychain.value(forKey: "symmetric", as: SymmetricKey.self))
            #expect(readSymmetric == symmetric)
            let readAgreement = try #require(try keychain.value(forKey: "agreement", as: Curve25519.KeyAgreement.PrivateKey.self))
            #expect(readAgreement.publicKey.rawRepresentation == agreement.publicKey.rawRepresentation)
        }
    }

    @Test func bytesThatAreNoKeyThrowDecodeError() throws {
        try keychainFiles.run {
            try keychain.set(Data([1, 2, 3]), forKey: "short")
            try keychain.set(Data(), forKey: "empty")
            #expect(keychainError { _ = try keychain.value(forKey: "short", as: Curve25519.Signing.PrivateKey.self) }?.status == errSecDecode)
            #expect(keychainError { _ = try keychain.value(forKey: "empty", as: SymmetricKey.self) }?.status == errSecDecode)
        }
    }
}
