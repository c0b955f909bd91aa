import Crypto
import Foundation
import Security
import Testing
import TestSupport

// Auth0.swift's DPoP key store for devices without a Secure Enclave (auth0/Auth0.swift,
// Auth0/DPoP/KeychainKeyStore.swift), Apple's "Storing CryptoKit Keys in the Keychain"
// pattern: a P-256 CryptoKit key turned into a SecKey with SecKeyCreateWithData, added with
// kSecValueRef under a tag and a label, read back with kSecReturnRef, checked with
// CFGetTypeID against SecKeyGetTypeID, and turned back with SecKeyCopyExternalRepresentation.
// Auth0 holds the Security functions in stored properties of function types, so our
// declarations must have Apple's exact signatures for those assignments to compile. Written
// here from reading that file; it needs no CommonCrypto.

/// The Security functions as Auth0's key store declares their types.
typealias Auth0StoreFunction = (_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus
typealias Auth0RetrieveFunction = (_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus
typealias Auth0RemoveFunction = (_ query: CFDictionary) -> OSStatus
typealias Auth0CreateSecKeyFunction = (_ keyData: CFData, _ attributes: CFDictionary,
                                       _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey?
typealias Auth0ExportSecKeyFunction = (_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData?

enum Auth0StyleError: Error, Equatable {
    case keychainOperationFailed(OSStatus)
    case secKeyOperationFailed
    case notASecKey
}

/// Auth0's KeychainKeyStore, in its shape.
struct Auth0StyleKeyStore {
    let keychainTag: String
    let privateKeyIdentifier = "com.auth0.sdk.dpop.privateKey"

    var store: Auth0StoreFunction = SecItemAdd
    var retrieve: Auth0RetrieveFunction = SecItemCopyMatching
    var remove: Auth0RemoveFunction = SecItemDelete
    var createSecKey: Auth0CreateSecKeyFunction = SecKeyCreateWithData
    var exportSecKey: Auth0ExportSecKeyFunction = SecKeyCopyExternalRepresentation

    func hasPrivateKey() throws -> Bool { try get() != nil }

    /// The stored key, or a new one stored first.
    func privateKey() throws -> P256.Signing.PrivateKey {
        if let privateKey = try get() { return privateKey }
        let privateKey = P256.Signing.PrivateKey()
        try store(privateKey)
        return privateKey
    }

    func clear() throws {
        let status = remove(baseQuery() as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw Auth0StyleError.keychainOperationFailed(status)
        }
    }

    private func get() throws -> P256.Signing.PrivateKey? {
        var query = baseQuery()
        query[kSecAttrKeyType] = kSecAttrKeyTypeECSECPrimeRandom
        query[kSecReturnRef] = true
        var item: CFTypeRef?
        let status = retrieve(query as CFDictionary, &item)
        guard status != errSecItemNotFound else { return nil }
        guard status == errSecSuccess else { throw Auth0StyleError.keychainOperationFailed(status) }
        // Auth0 checks the type ID (CFGetTypeID of the optional item) before its cast.
        guard CFGetTypeID(item) == SecKeyGetTypeID() else { throw Auth0StyleError.notASecKey }
        let secKey = item as! SecKey  // checked by its type ID just above
        var error: Unmanaged<CFError>?
        guard let data = exportSecKey(secKey, &error) as Data?, error == nil else {
            _ = error?.takeUnretainedValue()
            throw Auth0StyleError.secKeyOperationFailed
        }
        return try P256.Signing.PrivateKey(x963Representation: data)
    }

    private func store(_ key: P256.Signing.PrivateKey) throws {
        // A dictionary literal of CFString keys typed `[String: Any]`, as Auth0 writes it.
        let attributes = [
            kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass: kSecAttrKeyClassPrivate,
        ] as [String: Any]
        var error: Unmanaged<CFError>?
        guard let secKey = createSecKey(key.x963Representation as CFData, attributes as CFDictionary, &error), error == nil else {
            throw Auth0StyleError.secKeyOperationFailed
        }
        var query = baseQuery()
        query[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        query[kSecValueRef] = secKey
        let status = store(query as CFDictionary, nil)
        guard status == errSecSuccess else { throw Auth0StyleError.keychainOperationFailed(status) }
    }

    /// The tag as Data and the label as a String, in a `[CFString: Any]`.
    private func baseQuery() -> [CFString: Any] {
        [
            kSecClass: kSecClassKey,
            kSecAttrApplicationTag: Data(keychainTag.utf8),
            kSecAttrApplicationLabel: privateKeyIdentifier,
        ]
    }
}

/// Auth0's DPoP key store runs against this module; swift-crypto checks the key it gets back.
@Suite("Third-party usage: Auth0 DPoP key store")
struct Auth0KeyStoreUsageTests {
    // Rule (Apple, "Storing CryptoKit Keys in the Keychain"): a key stored by reference comes
    // back by tag and label as the same key (its signatures verify under the first key's
    // public key), stays until cleared, and is gone after.
    @Test("KeychainKeyStore.swift: store, get back the same P-256 key, clear; Security's functions assigned to Auth0's function types")
    func storeAndRetrieve() throws {
        let keychain = PrivateKeychain()
        try keychain.run {
            let keyStore = Auth0StyleKeyStore(keychainTag: "com.example.app")
            #expect(try keyStore.hasPrivateKey() == false)
            let created = try keyStore.privateKey()
            #expect(try keyStore.hasPrivateKey())
            let retrieved = try keyStore.privateKey()
            #expect(retrieved.rawRepresentation == created.rawRepresentation)
            let payload = Data("DPoP proof".utf8)
            #expect(created.publicKey.isValidSignature(try retrieved.signature(for: payload), for: payload))

            // Another tag is another store.
            #expect(try Auth0StyleKeyStore(keychainTag: "com.example.other").hasPrivateKey() == false)

            try keyStore.clear()
            #expect(try keyStore.hasPrivateKey() == false)
            try keyStore.clear()  // clearing an empty store is not an error (errSecItemNotFound)
            #expect(try keyStore.privateKey().rawRepresentation != created.rawRepresentation)
        }
    }
}
