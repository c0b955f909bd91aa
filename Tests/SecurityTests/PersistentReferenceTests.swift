import Foundation
import Security
import Testing
import TestSupport

/// Persistent references: the four class bytes and a 16-byte UUID, resolving the same item
/// as its attributes, through updates, and no longer after a delete.
@Suite("Persistent references")
struct PersistentReferenceTests {
    @Test("A persistent reference is the 4 class bytes followed by a 16-byte UUID", arguments: 0..<4)
    func layout(index: Int) throws {
        let keychain = PrivateKeychain()
        let (item, tag): ([String: Any], String) = [
            (genericPassword(), kSecClassGenericPassword as String),
            (specInternetPassword(), kSecClassInternetPassword as String),
            (specCertificate(), kSecClassCertificate as String),
            (specKey(), kSecClassKey as String),
        ][index]
        #expect(keychain.add(item) == errSecSuccess)
        let reference = try #require(keychain.persistentReference(item))
        #expect(reference.count == 20)
        #expect(reference.prefix(4) == Data(tag.utf8))
    }

    @Test("Every item has its own reference, and it is stable")
    func uniqueAndStable() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword(account: "a")) == errSecSuccess)
        #expect(keychain.add(genericPassword(account: "b")) == errSecSuccess)
        let first = try #require(keychain.persistentReference(genericPassword(account: "a")))
        let second = try #require(keychain.persistentReference(genericPassword(account: "b")))
        #expect(first != second)
        #expect(first.dropFirst(4) != second.dropFirst(4))
        #expect(keychain.persistentReference(genericPassword(account: "a")) == first)
    }

    @Test("A reference resolves the same item as its attributes")
    func resolvesSameItem() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword(account: "a").with([kSecValueData as String: Data("sa".utf8)]))
            == errSecSuccess)
        #expect(keychain.add(genericPassword(account: "b").with([kSecValueData as String: Data("sb".utf8)]))
            == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword(account: "b")))
        let byReference = keychain.copyMatching([
            kSecValuePersistentRef as String: reference,
            kSecReturnAttributes as String: true,
            kSecReturnData as String: true,
        ])
        #expect(byReference.status == errSecSuccess)
        let dictionary = try #require(byReference.result as? [String: Any])
        #expect(dictionary[kSecAttrAccount as String] as? String == "b")
        #expect(dictionary[kSecValueData as String] as? Data == Data("sb".utf8))
        let byAttributes = try #require(keychain.attributes(genericPassword(account: "b")).attributes)
        #expect(byAttributes[kSecAttrCreationDate as String] as? Date == dictionary[kSecAttrCreationDate as String] as? Date)
        // With kSecClass as well (kSecClass is not an attribute).
        let withClass = keychain.copyMatching([
            kSecClass as String: kSecClassGenericPassword,
            kSecValuePersistentRef as String: reference,
            kSecReturnData as String: true,
        ])
        #expect(withClass.result as? Data == Data("sb".utf8))
    }

    @Test("A reference works for update and delete of that one item")
    func updateAndDeleteByReference() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword(account: "a")) == errSecSuccess)
        #expect(keychain.add(genericPassword(account: "b")) == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword(account: "a")))
        let byReference: [String: Any] = [kSecValuePersistentRef as String: reference]
        #expect(keychain.update(byReference, [kSecAttrLabel as String: "by-ref"]) == errSecSuccess)
        #expect(keychain.attributes(genericPassword(account: "a")).attributes?[kSecAttrLabel as String] as? String
            == "by-ref")
        #expect(keychain.attributes(genericPassword(account: "b")).attributes?[kSecAttrLabel as String] == nil)
        #expect(keychain.delete(byReference) == errSecSuccess)
        #expect(keychain.count(genericPassword(account: "a")) == 0)
        #expect(keychain.count(genericPassword(account: "b")) == 1)
    }

    @Test("A reference survives updates")
    func survivesUpdates() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("s".utf8)])) == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword()))
        #expect(keychain.update(genericPassword(), [kSecValueData as String: Data("t".utf8)]) == errSecSuccess)
        #expect(keychain.update(genericPassword(), [kSecAttrAccount as String: "bob"]) == errSecSuccess)
        let found = keychain.copyMatching([kSecValuePersistentRef as String: reference, kSecReturnData as String: true])
        #expect(found.status == errSecSuccess)
        #expect(found.result as? Data == Data("t".utf8))
        #expect(keychain.persistentReference(genericPassword(account: "bob")) == reference)
    }

    @Test("A reference stops resolving after delete, even if the same tuple is added again")
    func stopsResolvingAfterDelete() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword()))
        #expect(keychain.delete(genericPassword()) == errSecSuccess)
        let byReference: [String: Any] = [kSecValuePersistentRef as String: reference]
        #expect(keychain.copyMatching(byReference).status == errSecItemNotFound)
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let found = keychain.copyMatching(byReference.with([kSecReturnData as String: true]))
        #expect(found.status == errSecItemNotFound)
        #expect(found.result == nil)
        #expect(keychain.update(byReference, [kSecAttrLabel as String: "x"]) == errSecItemNotFound)
        #expect(keychain.delete(byReference) == errSecItemNotFound)
        #expect(keychain.count(genericPassword()) == 1)
    }

    @Test("A reference combined with other attributes is errSecParam in every call")
    func combinedWithAttributes() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword()))
        let combined: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecValuePersistentRef as String: reference,
            kSecAttrAccount as String: "alice",
        ]
        #expect(keychain.copyMatching(combined).status == errSecParam)
        #expect(keychain.update(combined, [kSecAttrLabel as String: "x"]) == errSecParam)
        #expect(keychain.delete(combined) == errSecParam)
        let withLabel: [String: Any] = [
            kSecValuePersistentRef as String: reference,
            kSecAttrLabel as String: "whatever",
        ]
        #expect(keychain.copyMatching(withLabel).status == errSecParam)
        #expect(keychain.count(genericPassword()) == 1)
    }

    @Test("A reference to a deleted item does not resolve the item stored after it")
    func deletedReferenceStaysDead() throws {
        let keychain = PrivateKeychain()
        // Deleting the newest item frees its row id, which the next add reuses.
        #expect(keychain.add(genericPassword(account: "old").with([kSecValueData as String: Data("old".utf8)]))
            == errSecSuccess)
        let old = try #require(keychain.persistentReference(genericPassword(account: "old")))
        #expect(keychain.delete(genericPassword(account: "old")) == errSecSuccess)
        #expect(keychain.add(genericPassword(account: "new").with([kSecValueData as String: Data("new".utf8)]))
            == errSecSuccess)
        let new = try #require(keychain.persistentReference(genericPassword(account: "new")))
        #expect(new != old)
        let byOld = keychain.copyMatching([
            kSecValuePersistentRef as String: old, kSecReturnData as String: true,
        ])
        #expect(byOld.status == errSecItemNotFound)
        #expect(byOld.result == nil)
        let byNew = keychain.copyMatching([
            kSecValuePersistentRef as String: new, kSecReturnData as String: true,
        ])
        #expect(byNew.result as? Data == Data("new".utf8))
    }

    @Test("A reference with a changed byte resolves nothing", arguments: [4, 10, 12, 19])
    func alteredReference(byte: Int) throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword(account: "a")) == errSecSuccess)
        var reference = try #require(keychain.persistentReference(genericPassword(account: "a")))
        reference[byte] ^= 0x01
        #expect(keychain.copyMatching([kSecValuePersistentRef as String: reference]).status == errSecItemNotFound)
        #expect(keychain.delete([kSecValuePersistentRef as String: reference]) == errSecItemNotFound)
        #expect(keychain.count(genericPassword(account: "a")) == 1)
    }
}
