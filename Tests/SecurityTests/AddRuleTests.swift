import Foundation
import Security
import Testing
import TestSupport

/// SecItemAdd: duplicates, an item without data, no persistent reference in an add, and the
/// shapes of its result. (Adding while a class is locked is in KeychainManagementTests.)
@Suite("SecItemAdd rules")
struct AddRuleTests {
    // MARK: Duplicates

    @Test("A second add with the same tuple is errSecDuplicateItem, and the first item is kept")
    func duplicateIsRefused() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("first".utf8)])) == errSecSuccess)
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("second".utf8)]))
            == errSecDuplicateItem)
        #expect(keychain.count(genericPassword()) == 1)
        #expect(keychain.secret(genericPassword()) == Data("first".utf8))
    }

    @Test("A deleted item is not live: the same tuple can be added again")
    func addAfterDelete() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.delete(genericPassword()) == errSecSuccess)
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("again".utf8)])) == errSecSuccess)
        #expect(keychain.secret(genericPassword()) == Data("again".utf8))
    }

    @Test("The same account and service in another access group is a different item")
    func otherGroupIsDifferentItem() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.add(genericPassword().with([kSecAttrAccessGroup as String: "com.example.shared"]))
            == errSecSuccess)
        // The default group is the first one, so an explicit first group duplicates the first item.
        #expect(keychain.add(genericPassword().with([kSecAttrAccessGroup as String: "com.example.app"]))
            == errSecDuplicateItem)
        #expect(keychain.count(genericPassword()) == 2)
    }

    @Test("The same account and service with another sync value is a different item")
    func otherSyncIsDifferentItem() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.add(genericPassword().with([kSecAttrSynchronizable as String: true])) == errSecSuccess)
        #expect(keychain.add(genericPassword().with([kSecAttrSynchronizable as String: true])) == errSecDuplicateItem)
        #expect(keychain.add(genericPassword().with([kSecAttrSynchronizable as String: false])) == errSecDuplicateItem)
        #expect(keychain.count(genericPassword().with([
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
        ])) == 2)
    }

    @Test("Items of different classes never collide")
    func classesDoNotCollide() {
        let keychain = PrivateKeychain()
        #expect(keychain.add([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a"])
            == errSecSuccess)
        #expect(keychain.add([kSecClass as String: kSecClassInternetPassword, kSecAttrAccount as String: "a"])
            == errSecSuccess)
    }

    // MARK: Items without data

    @Test("An item with no kSecValueData is legal, and its data reads as empty")
    func itemWithoutData() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let found = keychain.copyMatching(genericPassword().with([kSecReturnData as String: true]))
        #expect(found.status == errSecSuccess)
        #expect(found.result as? Data == Data())
        #expect(keychain.add(specInternetPassword()) == errSecSuccess)
        #expect(keychain.add(specKey()) == errSecSuccess)
        #expect(keychain.add(specCertificate()) == errSecSuccess)
    }

    @Test("Data can be given to a data-less item later")
    func dataAddedByUpdate() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.update(genericPassword(), [kSecValueData as String: Data("later".utf8)]) == errSecSuccess)
        #expect(keychain.secret(genericPassword()) == Data("later".utf8))
    }

    // MARK: No persistent reference in an add

    @Test("Add with kSecValuePersistentRef is errSecParam")
    func addWithPersistentReference() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword()))
        #expect(keychain.add(genericPassword(account: "bob").with([kSecValuePersistentRef as String: reference]))
            == errSecParam)
        #expect(keychain.add([kSecValuePersistentRef as String: reference]) == errSecParam)
        #expect(keychain.count(genericPassword(account: "bob")) == 0)
        #expect(keychain.count([kSecClass as String: kSecClassGenericPassword]) == 1)
    }

    // MARK: What an add returns

    @Test("No return keys gives a nil result")
    func addWithoutReturnKeys() {
        let keychain = PrivateKeychain()
        var result: CFTypeRef?
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("s".utf8)]), result: &result)
            == errSecSuccess)
        #expect(result == nil)
    }

    @Test("Data only gives Data")
    func addReturningData() {
        let keychain = PrivateKeychain()
        var result: CFTypeRef?
        #expect(keychain.add(genericPassword().with([
            kSecValueData as String: Data("s".utf8),
            kSecReturnData as String: true,
        ]), result: &result) == errSecSuccess)
        #expect(result as? Data == Data("s".utf8))
        #expect(keychain.count(genericPassword()) == 1)
    }

    @Test("Persistent ref only gives a 20-byte Data that finds the item")
    func addReturningPersistentReference() throws {
        let keychain = PrivateKeychain()
        var result: CFTypeRef?
        #expect(keychain.add(genericPassword().with([
            kSecValueData as String: Data("s".utf8),
            kSecReturnPersistentRef as String: true,
        ]), result: &result) == errSecSuccess)
        let reference = try #require(result as? Data)
        #expect(reference.count == 20)
        #expect(reference == keychain.persistentReference(genericPassword()))
        let found = keychain.copyMatching([kSecValuePersistentRef as String: reference, kSecReturnData as String: true])
        #expect(found.result as? Data == Data("s".utf8))
    }

    @Test("Attributes only gives the attributes dictionary")
    func addReturningAttributes() throws {
        let keychain = PrivateKeychain()
        var result: CFTypeRef?
        #expect(keychain.add(genericPassword().with([
            kSecValueData as String: Data("s".utf8),
            kSecAttrLabel as String: "label",
            kSecReturnAttributes as String: true,
        ]), result: &result) == errSecSuccess)
        let attributes = try #require(result as? [String: Any])
        #expect(attributes[kSecAttrAccount as String] as? String == "alice")
        #expect(attributes[kSecAttrService as String] as? String == "example.com")
        #expect(attributes[kSecAttrLabel as String] as? String == "label")
        #expect(attributes[kSecAttrAccessGroup as String] as? String == "com.example.app")
        #expect(attributes[kSecAttrCreationDate as String] is Date)
        #expect(attributes[kSecValueData as String] == nil)
        #expect(attributes[kSecValuePersistentRef as String] == nil)
        #expect(attributes[kSecClass as String] == nil)
    }

    @Test("Several return keys give one dictionary with v_Data and v_PersistentRef merged in")
    func addReturningSeveral() throws {
        let keychain = PrivateKeychain()
        var result: CFTypeRef?
        #expect(keychain.add(genericPassword().with([
            kSecValueData as String: Data("s".utf8),
            kSecReturnData as String: true,
            kSecReturnAttributes as String: true,
            kSecReturnPersistentRef as String: true,
        ]), result: &result) == errSecSuccess)
        let dictionary = try #require(result as? [String: Any])
        #expect(dictionary[kSecValueData as String] as? Data == Data("s".utf8))
        let reference = try #require(dictionary[kSecValuePersistentRef as String] as? Data)
        #expect(reference == keychain.persistentReference(genericPassword()))
        #expect(dictionary[kSecAttrAccount as String] as? String == "alice")
        #expect(dictionary[kSecAttrService as String] as? String == "example.com")
    }

    @Test("Data and persistent ref give a dictionary of exactly those two")
    func addReturningDataAndReference() throws {
        let keychain = PrivateKeychain()
        var result: CFTypeRef?
        #expect(keychain.add(genericPassword().with([
            kSecValueData as String: Data("s".utf8),
            kSecReturnData as String: true,
            kSecReturnPersistentRef as String: true,
        ]), result: &result) == errSecSuccess)
        let dictionary = try #require(result as? [String: Any])
        #expect(Set(dictionary.keys) == [kSecValueData as String, kSecValuePersistentRef as String])
        #expect(dictionary[kSecValueData as String] as? Data == Data("s".utf8))
        #expect((dictionary[kSecValuePersistentRef as String] as? Data)?.count == 20)
    }

    @Test("kSecReturnRef on a password gives its attributes plus class")
    func addReturningReference() throws {
        let keychain = PrivateKeychain()
        var result: CFTypeRef?
        #expect(keychain.add(genericPassword().with([kSecReturnRef as String: true]), result: &result) == errSecSuccess)
        let dictionary = try #require(result as? [String: Any])
        #expect(dictionary[kSecClass as String] as? String == kSecClassGenericPassword as String)
        #expect(dictionary[kSecAttrAccount as String] as? String == "alice")
    }

    @Test("A failed add leaves the result nil")
    func failedAddLeavesResultNil() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        var result: CFTypeRef?
        #expect(keychain.add(genericPassword().with([kSecReturnAttributes as String: true]), result: &result)
            == errSecDuplicateItem)
        #expect(result == nil)
    }

    @Test("A nil result pointer is legal with return keys")
    func addWithNilResultPointer() {
        let keychain = PrivateKeychain()
        let query = genericPassword().with([kSecReturnData as String: true])
        let status = keychain.run { SecItemAdd(query as CFDictionary, nil) }
        #expect(status == errSecSuccess)
        #expect(keychain.count(genericPassword()) == 1)
    }

    @Test("Any kSecMatch key in SecItemAdd is errSecParam, and nothing is added",
          arguments: ["m_Limit", "m_CaseInsensitive", "m_Bogus"])
    func matchKeyInAddIsParam(key: String) {
        let keychain = PrivateKeychain()
        let value: Any = key == "m_Limit" ? kSecMatchLimitOne : true
        #expect(keychain.add(genericPassword().with([key: value])) == errSecParam)
        #expect(keychain.count(genericPassword()) == 0)
    }
}
