import Foundation
import Security
import Testing
import TestSupport

/// SecItemDelete: it deletes every match (none: errSecItemNotFound); kSecMatchLimitAll is
/// accepted and changes nothing, any other kSecMatch key is errSecParam.
@Suite("SecItemDelete rules")
struct DeleteRuleTests {
    private func keychainWithItems() -> PrivateKeychain {
        let keychain = PrivateKeychain()
        for account in ["a", "b", "c"] {
            #expect(keychain.add(genericPassword(account: account)) == errSecSuccess)
        }
        #expect(keychain.add(genericPassword(account: "d", service: "other")) == errSecSuccess)
        #expect(keychain.add(specInternetPassword(account: "a")) == errSecSuccess)
        return keychain
    }

    private let allGeneric: [String: Any] = [kSecClass as String: kSecClassGenericPassword]

    // MARK: Every match is deleted

    @Test("A delete removes every match and nothing else")
    func deletesEveryMatch() {
        let keychain = keychainWithItems()
        #expect(keychain.delete(allGeneric.with([kSecAttrService as String: "example.com"])) == errSecSuccess)
        #expect(keychain.count(allGeneric.with([kSecAttrService as String: "example.com"])) == 0)
        #expect(keychain.count(genericPassword(account: "d", service: "other")) == 1)
        #expect(keychain.count(specInternetPassword(account: "a")) == 1)
    }

    @Test("A delete by class alone removes every item of that class")
    func deleteWholeClass() {
        let keychain = keychainWithItems()
        #expect(keychain.delete(allGeneric) == errSecSuccess)
        #expect(keychain.count(allGeneric) == 0)
        #expect(keychain.count([kSecClass as String: kSecClassInternetPassword]) == 1)
    }

    @Test("A delete that matches nothing is errSecItemNotFound")
    func deleteWithoutMatch() {
        let keychain = keychainWithItems()
        #expect(keychain.delete(genericPassword(account: "nobody")) == errSecItemNotFound)
        #expect(keychain.delete(genericPassword(account: "a")) == errSecSuccess)
        #expect(keychain.delete(genericPassword(account: "a")) == errSecItemNotFound)
        #expect(PrivateKeychain().delete(allGeneric) == errSecItemNotFound)
        #expect(keychain.count(allGeneric) == 3)
    }

    @Test("A deleted item is gone for searches and updates")
    func deletedItemIsGone() {
        let keychain = keychainWithItems()
        #expect(keychain.delete(genericPassword(account: "b")) == errSecSuccess)
        #expect(keychain.copyMatching(genericPassword(account: "b")).status == errSecItemNotFound)
        #expect(keychain.update(genericPassword(account: "b"), [kSecAttrLabel as String: "x"]) == errSecItemNotFound)
    }

    // MARK: kSecMatchLimitAll in a delete

    @Test("kSecMatchLimitAll in a delete query is accepted and deletes every match, as macOS does")
    func matchLimitAllInDelete() {
        let keychain = keychainWithItems()
        #expect(keychain.delete(allGeneric.with([kSecMatchLimit as String: kSecMatchLimitAll])) == errSecSuccess)
        #expect(keychain.count(allGeneric) == 0)
        #expect(keychain.count([kSecClass as String: kSecClassInternetPassword]) == 1)
    }

    @Test("Any other m_ key in a delete query is errSecParam", arguments: 0..<4)
    func matchKeysInDelete(index: Int) {
        let keychain = keychainWithItems()
        let extra: [String: Any] = [
            [kSecMatchLimit as String: kSecMatchLimitOne],
            [kSecMatchLimit as String: 1],
            [kSecMatchCaseInsensitive as String: true],
            ["m_Bogus": true],
        ][index]
        #expect(keychain.delete(allGeneric.with(extra)) == errSecParam)
        #expect(keychain.count(allGeneric) == 4)
    }

    @Test("Choice: kSecReturn* in a delete query is errSecParam, even false",
          arguments: [kSecReturnData as String, kSecReturnAttributes as String,
                      kSecReturnRef as String, kSecReturnPersistentRef as String])
    func returnKeysInDelete(key: String) {
        let keychain = keychainWithItems()
        #expect(keychain.delete(genericPassword(account: "a").with([key: true])) == errSecParam)
        #expect(keychain.delete(genericPassword(account: "a").with([key: false])) == errSecParam)
        #expect(keychain.count(genericPassword(account: "a")) == 1)
    }
}
