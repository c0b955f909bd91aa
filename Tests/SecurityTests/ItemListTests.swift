import Crypto
import Foundation
import Security
import Testing
import TestSupport

/// kSecMatchItemList and kSecUseItemList: a search (or, with kSecUseItemList, a delete) is
/// limited to the listed keys, certificates, identities or persistent references (Apple's
/// SecItem.h: the list "is treated as the set of all possible items to search").
@Suite("Item lists")
struct ItemListTests {
    private static func key() throws -> SecKey {
        let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                         kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
        var error: Unmanaged<CFError>?
        return try #require(SecKeyCreateWithData(P256.Signing.PrivateKey().x963Representation as CFData,
                                                 attributes as CFDictionary, &error))
    }

    @Test("kSecMatchItemList: only the listed keys (by reference or persistent reference) are found")
    func matchItemList() throws {
        let keychain = PrivateKeychain()
        let keys = try (0..<3).map { _ in try Self.key() }
        for (index, key) in keys.enumerated() {
            #expect(keychain.add([kSecValueRef as String: key, kSecAttrLabel as String: "key \(index)"]) == errSecSuccess)
        }
        let third = try #require(keychain.persistentReference([kSecValueRef as String: keys[2]]))
        let found = keychain.copyMatching([
            kSecClass as String: kSecClassKey, kSecMatchItemList as String: [keys[0], third] as [Any],
            kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
        ])
        let labels = try #require(found.result as? [[String: Any]]).compactMap { $0[kSecAttrLabel as String] as? String }
        #expect(labels == ["key 0", "key 2"])
        // The query's own attributes still apply: a listed key with another label is not found.
        #expect(keychain.copyMatching([kSecClass as String: kSecClassKey, kSecAttrLabel as String: "key 1",
                                       kSecMatchItemList as String: [keys[0]]]).status == errSecItemNotFound)
        // An empty list, or one of items of another class, matches nothing.
        #expect(keychain.copyMatching([kSecClass as String: kSecClassKey, kSecMatchItemList as String: [Any]()]).status
            == errSecItemNotFound)
        let password = genericPassword()
        #expect(keychain.add(password) == errSecSuccess)
        let passwordReference = try #require(keychain.persistentReference(password))
        #expect(keychain.copyMatching([kSecClass as String: kSecClassKey,
                                       kSecMatchItemList as String: [passwordReference]]).status == errSecItemNotFound)
    }

    @Test("kSecUseItemList: a delete removes the listed items only, all in one transaction")
    func useItemListDelete() throws {
        let keychain = PrivateKeychain()
        let keys = try (0..<3).map { _ in try Self.key() }
        for key in keys { #expect(keychain.add([kSecValueRef as String: key]) == errSecSuccess) }
        #expect(keychain.delete([kSecClass as String: kSecClassKey, kSecUseItemList as String: [keys[0], keys[2]]])
            == errSecSuccess)
        #expect(keychain.count([kSecClass as String: kSecClassKey]) == 1)
        #expect(keychain.copyMatching([kSecValueRef as String: keys[1]]).status == errSecSuccess)
        #expect(keychain.delete([kSecClass as String: kSecClassKey, kSecUseItemList as String: [keys[0]]])
            == errSecItemNotFound)
    }

    @Test("Bad input: a list that is no array, or holds anything but items, is errSecParam")
    func badLists() throws {
        let keychain = PrivateKeychain()
        let query: [String: Any] = [kSecClass as String: kSecClassKey]
        #expect(keychain.copyMatching(query.with([kSecMatchItemList as String: "not a list"])).status == errSecParam)
        #expect(keychain.copyMatching(query.with([kSecMatchItemList as String: ["text"]])).status == errSecParam)
        #expect(keychain.copyMatching(query.with([kSecMatchItemList as String: [Data([1, 2])]])).status == errSecParam)
        #expect(keychain.delete(query.with([kSecUseItemList as String: [42]])) == errSecParam)
    }
}
