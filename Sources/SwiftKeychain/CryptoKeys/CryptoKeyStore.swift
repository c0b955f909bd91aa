import Foundation
import Security

/// NIST elliptic-curve private keys of CryptoKit (swift-crypto on Linux) kept in the keychain
/// as key items (`kSecClassKey`), each named by a label, as Apple's "Storing CryptoKit Keys in
/// the Keychain" does.
///
/// ```swift
/// let store = CryptoKeyStore()
/// let signingKey = P256.Signing.PrivateKey()
/// try store.set(signingKey, label: "com.example.signing")
/// let restored = try store.key(P256.Signing.PrivateKey.self, label: "com.example.signing")
/// ```
///
/// The items are the ones Apple's sample code writes and reads (`kSecAttrApplicationLabel`
/// is the label, the key goes in through `SecKeyCreateWithData` and out through
/// `SecKeyCopyExternalRepresentation`), so the same code works on Apple platforms. Keys of
/// other kinds (`SymmetricKey`, Curve25519 keys) are stored through a ``Keychain`` as values.
public struct CryptoKeyStore: Sendable, Hashable {
    /// The access group keys are saved to, and the only one searched; nil saves to the
    /// process's default group and searches all of its groups.
    public var accessGroup: String?
    /// The keychain file the keys are in; nil for the default keychain.
    public var file: KeychainFile?
    /// When stored keys can be read; applied to keys as they are stored.
    public var accessibility: Accessibility

    /// A store of keys.
    ///
    /// - Parameters:
    ///   - accessGroup: The access group to use; nil for the process's default group.
    ///   - file: The keychain file (macOS and Linux); nil for the default keychain.
    ///   - accessibility: When stored keys can be read.
    public init(accessGroup: String? = nil, file: KeychainFile? = nil, accessibility: Accessibility = .whenUnlocked) {
        self.accessGroup = accessGroup
        self.file = file
        self.accessibility = accessibility
    }

    /// Stores a private key under a label, replacing the key of the same curve stored there
    /// (a label holds one key per curve; signing and key-agreement keys share it).
    ///
    /// - Throws: ``KeychainError``.
    public func set<Key: SecKeyConvertible>(_ key: Key, label: String) throws(KeychainError) {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
        ]
        var error: Unmanaged<CFError>?
        guard let secKey = SecKeyCreateWithData(key.x963Representation as CFData, attributes as CFDictionary, &error) else {
            let status = error.map { OSStatus(truncatingIfNeeded: CFErrorGetCode($0.takeRetainedValue())) } ?? errSecParam
            throw KeychainError(status: status, reason: "the key cannot be made into a SecKey")
        }
        let identity = try query(for: Key.self, label: label)
        var newItem = identity
        newItem[kSecValueRef as String] = secKey
        newItem[kSecAttrAccessible as String] = accessibility.rawValue
        // Replaced in place (the key's data and accessibility), never deleted first: a
        // delete followed by a failed add would lose the key.
        let changes: [String: Any] = [
            kSecValueData as String: key.x963Representation,
            kSecAttrAccessible as String: accessibility.rawValue,
        ]
        try SecItemCalls.upsert(identity, changes: changes, newItem: newItem, during: "storing a key")
    }

    /// The private key stored under a label; nil when there is none.
    ///
    /// - Throws: ``KeychainError``; `errSecDecode` when the stored key is not one of this type.
    public func key<Key: SecKeyConvertible>(_ type: Key.Type = Key.self, label: String) throws(KeychainError) -> Key? {
        var query = try query(for: type, label: label)
        query[kSecReturnRef as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        switch try SecItemCalls.copyMatching(query, during: "reading a key") {
        case .notFound:
            return nil
        case .found(let result):
            #if os(Linux)
            guard let secKey = result as? SecKey else {
                throw KeychainError(status: errSecDecode, reason: "the keychain returned no key")
            }
            #else
            guard let result, CFGetTypeID(result) == SecKeyGetTypeID() else {
                throw KeychainError(status: errSecDecode, reason: "the keychain returned no key")
            }
            let secKey = result as! SecKey // A CF type: checked by its type identifier above.
            #endif
            var error: Unmanaged<CFError>?
            guard let data = SecKeyCopyExternalRepresentation(secKey, &error) as Data? else {
                error?.release()
                throw KeychainError(status: errSecDecode, reason: "the stored key cannot be exported")
            }
            do {
                return try Key(x963Representation: data)
            } catch {
                throw KeychainError(status: errSecDecode, reason: "the stored key is not a \(Key.self)")
            }
        }
    }

    /// Removes the private key of this curve stored under a label.
    ///
    /// - Returns: Whether there was a key to remove.
    /// - Throws: ``KeychainError``.
    @discardableResult
    public func removeKey<Key: SecKeyConvertible>(_ type: Key.Type, label: String) throws(KeychainError) -> Bool {
        try SecItemCalls.delete(try query(for: type, label: label), during: "removing a key")
    }

    /// The query naming the one key of a kind under a label.
    func query<Key: SecKeyConvertible>(for type: Key.Type, label: String) throws(KeychainError) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationLabel as String: label,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
            kSecAttrKeySizeInBits as String: Key.keySizeInBits,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        try Platform.target(&query, file: file)
        return query
    }
}
