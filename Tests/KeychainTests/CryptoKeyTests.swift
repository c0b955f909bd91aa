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

/// NIST keys through ``CryptoKeyStore``: key items made with `SecKeyCreateWithData`, as the
/// article's `SecKeyConvertible` code makes them, read back by that code's query.
@Suite struct CryptoKeyStoreTests {
    let keychainFiles = PrivateKeychain()

    @Test func theDocumentedSampleRestoresTheKey() throws {
        try keychainFiles.run {
            let restored = try DocumentationSamples.storeCryptoKitKey()
            #expect(restored)
        }
    }

    /// The article's read: a kSecClassKey query by application label with kSecReturnRef,
    /// then SecKeyCopyExternalRepresentation, gives the key's X9.63 bytes.
    @Test func theArticlesReadFindsTheStoredKey() throws {
        try keychainFiles.run {
            let key = P384.Signing.PrivateKey()
            try CryptoKeyStore().set(key, label: "article")
            let query: [String: Any] = [kSecClass as String: kSecClassKey,
                                        kSecAttrApplicationLabel as String: "article",
                                        kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
                                        kSecReturnRef as String: true]
            var item: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess)
            let secKey = try #require(item as? SecKey)
            var error: Unmanaged<CFError>?
            let data = try #require(SecKeyCopyExternalRepresentation(secKey, &error) as Data?)
            #expect(data == key.x963Representation)
        }
    }

    /// Setting a label again replaces the key; each curve under a label is its own item, and
    /// removing one leaves the others.
    @Test func aLabelHoldsOneKeyOfEachKind() throws {
        try keychainFiles.run {
            let store = CryptoKeyStore()
            let first = P256.Signing.PrivateKey()
            let second = P256.Signing.PrivateKey()
            let other = P521.KeyAgreement.PrivateKey()
            try store.set(first, label: "k")
            try store.set(second, label: "k")
            try store.set(other, label: "k")
            #expect(try store.key(P256.Signing.PrivateKey.self, label: "k")?.rawRepresentation == second.rawRepresentation)
            #expect(try store.key(P521.KeyAgreement.PrivateKey.self, label: "k")?.rawRepresentation == other.rawRepresentation)
            #expect(try store.removeKey(P256.Signing.PrivateKey.self, label: "k"))
            #expect(try store.key(P256.Signing.PrivateKey.self, label: "k") == nil)
            #expect(try store.key(P521.KeyAgreement.PrivateKey.self, label: "k") != nil)
            #expect(try store.key(P384.Signing.PrivateKey.self, label: "absent") == nil)
        }
    }
}
