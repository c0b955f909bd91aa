import Foundation
import Security
import Testing
import TestSupport

/// SecItemUpdate: every match is updated (none: errSecItemNotFound); what the query and the
/// changes may hold; mdat becomes newer and cdat stays; a collision changes nothing; the
/// access group, accessibility and synchronizable flag may change; identical values succeed.
@Suite("SecItemUpdate rules")
struct UpdateRuleTests {
    private func label(_ keychain: PrivateKeychain, _ query: [String: Any]) -> String? {
        keychain.attributes(query).attributes?[kSecAttrLabel as String] as? String
    }

    // MARK: Every match is updated

    @Test("An update changes every match")
    func updatesEveryMatch() {
        let keychain = PrivateKeychain()
        for account in ["a", "b", "c"] {
            #expect(keychain.add(genericPassword(account: account).with([kSecAttrLabel as String: "old"])) == errSecSuccess)
        }
        #expect(keychain.add(genericPassword(account: "d", service: "other").with([kSecAttrLabel as String: "old"]))
            == errSecSuccess)
        let byService: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "example.com",
        ]
        #expect(keychain.update(byService, [
            kSecAttrLabel as String: "new",
            kSecValueData as String: Data("shared".utf8),
        ]) == errSecSuccess)
        for account in ["a", "b", "c"] {
            #expect(label(keychain, genericPassword(account: account)) == "new")
            #expect(keychain.secret(genericPassword(account: account)) == Data("shared".utf8))
        }
        #expect(label(keychain, genericPassword(account: "d", service: "other")) == "old")
    }

    @Test("An update that matches nothing is errSecItemNotFound")
    func updateWithoutMatch() {
        let keychain = PrivateKeychain()
        #expect(keychain.update(genericPassword(), [kSecAttrLabel as String: "x"]) == errSecItemNotFound)
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.update(genericPassword(account: "bob"), [kSecAttrLabel as String: "x"]) == errSecItemNotFound)
        #expect(label(keychain, genericPassword()) == nil)
    }

    // MARK: Return and match keys in an update query

    @Test("kSecReturn* in the update query is errSecParam, even false",
          arguments: [kSecReturnData as String, kSecReturnAttributes as String,
                      kSecReturnRef as String, kSecReturnPersistentRef as String])
    func returnKeyInUpdateQuery(key: String) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrLabel as String: "old"])) == errSecSuccess)
        #expect(keychain.update(genericPassword().with([key: true]), [kSecAttrLabel as String: "new"]) == errSecParam)
        #expect(keychain.update(genericPassword().with([key: false]), [kSecAttrLabel as String: "new"]) == errSecParam)
        #expect(label(keychain, genericPassword()) == "old")
    }

    @Test("kSecMatch* in the update query is errSecParam")
    func matchKeyInUpdateQuery() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrLabel as String: "old"])) == errSecSuccess)
        for extra: [String: Any] in [
            [kSecMatchLimit as String: kSecMatchLimitAll],
            [kSecMatchLimit as String: kSecMatchLimitOne],
            [kSecMatchCaseInsensitive as String: true],
            [kSecMatchItemList as String: [Any]()],
        ] {
            #expect(keychain.update(genericPassword().with(extra), [kSecAttrLabel as String: "new"]) == errSecParam)
        }
        #expect(label(keychain, genericPassword()) == "old")
    }

    // MARK: attributesToUpdate

    @Test("attributesToUpdate with class or a non-attribute key is errSecNoSuchAttr", arguments: 0..<8)
    func nonAttributeKeysInChanges(index: Int) {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrLabel as String: "old"])) == errSecSuccess)
        let (key, value): (String, Any) = [
            (kSecClass as String, kSecClassGenericPassword),
            (kSecReturnData as String, true),
            (kSecMatchLimit as String, kSecMatchLimitAll),
            (kSecValuePersistentRef as String, Data(count: 20)),
            (kSecUseOperationPrompt as String, "prompt"),
            (kSecAttrServer as String, "example.com"),
            ("zzzz", "x"),
            ("notAnAttribute", "x"),
        ][index]
        #expect(keychain.update(genericPassword(), [key: value, kSecAttrLabel as String: "new"]) == errSecNoSuchAttr)
        #expect(label(keychain, genericPassword()) == "old")
    }

    @Test("A null attribute in attributesToUpdate is errSecParam")
    func nullAttributeInChanges() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrLabel as String: "old"])) == errSecSuccess)
        #expect(keychain.update(genericPassword(), [kSecAttrLabel as String: NSNull()]) == errSecParam)
        #expect(keychain.update(genericPassword(), [kSecAttrComment as String: NSNull(), kSecAttrLabel as String: "new"])
            == errSecParam)
        #expect(label(keychain, genericPassword()) == "old")
    }

    @Test("v_Data that is not Data in attributesToUpdate is errSecParam")
    func nonDataValueInChanges() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("old".utf8)])) == errSecSuccess)
        for value: Any in ["new", NSNull(), 42, [UInt8]([1, 2])] {
            #expect(keychain.update(genericPassword(), [kSecValueData as String: value]) == errSecParam)
        }
        #expect(keychain.secret(genericPassword()) == Data("old".utf8))
    }

    @Test("Attributes of the class and v_Data are accepted")
    func classAttributesAccepted() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.update(genericPassword(), [
            kSecAttrLabel as String: "l",
            kSecAttrComment as String: "c",
            kSecAttrDescription as String: "d",
            kSecAttrGeneric as String: Data([1, 2, 3]),
            kSecAttrIsInvisible as String: true,
            kSecValueData as String: Data("new".utf8),
        ]) == errSecSuccess)
        let attributes = try #require(keychain.attributes(genericPassword()).attributes)
        #expect(attributes[kSecAttrLabel as String] as? String == "l")
        #expect(attributes[kSecAttrComment as String] as? String == "c")
        #expect(attributes[kSecAttrDescription as String] as? String == "d")
        #expect(attributes[kSecAttrGeneric as String] as? Data == Data([1, 2, 3]))
        #expect((attributes[kSecAttrIsInvisible as String] as? NSNumber)?.intValue == 1)
        #expect(keychain.secret(genericPassword()) == Data("new".utf8))
    }

    // MARK: Dates on update

    @Test("mdat becomes strictly newer and cdat is kept")
    func modificationDateAdvances() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let before = try #require(keychain.attributes(genericPassword()).attributes)
        let created = try #require(before[kSecAttrCreationDate as String] as? Date)
        var modified = try #require(before[kSecAttrModificationDate as String] as? Date)
        for round in 0..<3 {
            #expect(keychain.update(genericPassword(), [kSecAttrLabel as String: "round \(round)"]) == errSecSuccess)
            let after = try #require(keychain.attributes(genericPassword()).attributes)
            let newModified = try #require(after[kSecAttrModificationDate as String] as? Date)
            #expect(newModified > modified)
            #expect(after[kSecAttrCreationDate as String] as? Date == created)
            modified = newModified
        }
    }

    @Test("Updating only the data also advances mdat")
    func dataUpdateAdvancesModificationDate() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("a".utf8)])) == errSecSuccess)
        let before = try #require(keychain.attributes(genericPassword()).attributes?[
            kSecAttrModificationDate as String] as? Date)
        #expect(keychain.update(genericPassword(), [kSecValueData as String: Data("b".utf8)]) == errSecSuccess)
        let after = try #require(keychain.attributes(genericPassword()).attributes?[
            kSecAttrModificationDate as String] as? Date)
        #expect(after > before)
    }

    @Test("cdat is kept even when attributesToUpdate names one")
    func creationDateKept() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let before = try #require(keychain.attributes(genericPassword()).attributes)
        let created = try #require(before[kSecAttrCreationDate as String] as? Date)
        let modified = try #require(before[kSecAttrModificationDate as String] as? Date)
        let status = keychain.update(genericPassword(), [
            kSecAttrCreationDate as String: Date(timeIntervalSince1970: 0),
            kSecAttrLabel as String: "x",
        ])
        #expect(status == errSecSuccess)
        let after = try #require(keychain.attributes(genericPassword()).attributes)
        #expect(after[kSecAttrCreationDate as String] as? Date == created)
        let newModified = try #require(after[kSecAttrModificationDate as String] as? Date)
        #expect(newModified > modified)
    }

    // MARK: Collisions

    @Test("An update that collides with another item is errSecDuplicateItem and changes nothing")
    func collisionIsDuplicate() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword(account: "a").with([
            kSecAttrLabel as String: "A", kSecValueData as String: Data("sa".utf8),
        ])) == errSecSuccess)
        #expect(keychain.add(genericPassword(account: "b").with([
            kSecAttrLabel as String: "B", kSecValueData as String: Data("sb".utf8),
        ])) == errSecSuccess)
        #expect(keychain.update(genericPassword(account: "a"), [
            kSecAttrAccount as String: "b",
            kSecAttrLabel as String: "changed",
            kSecValueData as String: Data("changed".utf8),
        ]) == errSecDuplicateItem)
        #expect(label(keychain, genericPassword(account: "a")) == "A")
        #expect(label(keychain, genericPassword(account: "b")) == "B")
        #expect(keychain.secret(genericPassword(account: "a")) == Data("sa".utf8))
        #expect(keychain.secret(genericPassword(account: "b")) == Data("sb".utf8))
    }

    @Test("When two matches would collide with each other, the whole update is rolled back")
    func collisionAmongMatchesRollsBack() {
        let keychain = PrivateKeychain()
        for account in ["a", "b", "c"] {
            #expect(keychain.add(genericPassword(account: account).with([
                kSecAttrLabel as String: "old-\(account)",
                kSecValueData as String: Data(account.utf8),
            ])) == errSecSuccess)
        }
        let byService: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "example.com",
        ]
        #expect(keychain.update(byService, [
            kSecAttrAccount as String: "same",
            kSecAttrLabel as String: "new",
            kSecValueData as String: Data("new".utf8),
        ]) == errSecDuplicateItem)
        for account in ["a", "b", "c"] {
            #expect(label(keychain, genericPassword(account: account)) == "old-\(account)")
            #expect(keychain.secret(genericPassword(account: account)) == Data(account.utf8))
        }
        #expect(keychain.count(genericPassword(account: "same")) == 0)
    }

    @Test("Moving an item onto another's group or sync value collides too")
    func collisionByGroupOrSync() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrLabel as String: "app"])) == errSecSuccess)
        #expect(keychain.add(genericPassword().with([
            kSecAttrAccessGroup as String: "com.example.shared", kSecAttrLabel as String: "shared",
        ])) == errSecSuccess)
        #expect(keychain.add(genericPassword().with([
            kSecAttrSynchronizable as String: true, kSecAttrLabel as String: "synced",
        ])) == errSecSuccess)
        let appItem = genericPassword().with([kSecAttrAccessGroup as String: "com.example.app"])
        #expect(keychain.update(appItem, [kSecAttrAccessGroup as String: "com.example.shared"]) == errSecDuplicateItem)
        #expect(keychain.update(appItem, [kSecAttrSynchronizable as String: true]) == errSecDuplicateItem)
        #expect(label(keychain, appItem) == "app")
        #expect(keychain.count(genericPassword().with([
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
        ])) == 3)
    }

    // MARK: Changing the group, accessibility or sync

    @Test("The access group can change to another of the caller's groups")
    func changeAccessGroup() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("s".utf8)])) == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword()))
        #expect(keychain.update(genericPassword(), [kSecAttrAccessGroup as String: "com.example.shared"]) == errSecSuccess)
        let attributes = try #require(keychain.attributes(genericPassword()).attributes)
        #expect(attributes[kSecAttrAccessGroup as String] as? String == "com.example.shared")
        #expect(keychain.count(genericPassword().with([kSecAttrAccessGroup as String: "com.example.app"])) == 0)
        // A caller holding only the new group now sees it, with its data.
        #expect(keychain.asCaller(["com.example.shared"]).secret(genericPassword()) == Data("s".utf8))
        #expect(keychain.asCaller(["com.example.app"]).copyMatching(genericPassword()).status == errSecItemNotFound)
        #expect(keychain.copyMatching([kSecValuePersistentRef as String: reference]).status == errSecSuccess)
    }

    @Test("The access group cannot change to a group the caller does not hold")
    func changeAccessGroupToForeignGroup() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.update(genericPassword(), [kSecAttrAccessGroup as String: "com.other.app"])
            == errSecMissingEntitlement)
        let attributes = try #require(keychain.attributes(genericPassword()).attributes)
        #expect(attributes[kSecAttrAccessGroup as String] as? String == "com.example.app")
    }

    @Test("Accessibility can change and the item stays readable",
          arguments: [kSecAttrAccessibleAlways as String, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String,
                      kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String])
    func changeAccessibility(accessible: String) throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("s".utf8)])) == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword()))
        #expect(keychain.update(genericPassword(), [kSecAttrAccessible as String: accessible]) == errSecSuccess)
        let attributes = try #require(keychain.attributes(genericPassword()).attributes)
        #expect(attributes[kSecAttrAccessible as String] as? String == accessible)
        #expect(keychain.secret(genericPassword()) == Data("s".utf8))
        #expect(keychain.count(genericPassword().with([kSecAttrAccessible as String: accessible])) == 1)
        #expect(keychain.count(genericPassword().with([
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
        ])) == 0)
        let byReference = keychain.copyMatching([kSecValuePersistentRef as String: reference, kSecReturnData as String: true])
        #expect(byReference.result as? Data == Data("s".utf8))
    }

    @Test("The synchronizable flag can change")
    func changeSynchronizable() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("s".utf8)])) == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword()))
        #expect(keychain.update(genericPassword(), [kSecAttrSynchronizable as String: true]) == errSecSuccess)
        #expect(keychain.copyMatching(genericPassword()).status == errSecItemNotFound)
        let synced = genericPassword().with([kSecAttrSynchronizable as String: true])
        #expect(keychain.secret(synced) == Data("s".utf8))
        #expect((keychain.attributes(synced).attributes?[kSecAttrSynchronizable as String] as? NSNumber)?.intValue == 1)
        #expect(keychain.copyMatching([kSecValuePersistentRef as String: reference]).status == errSecSuccess)
        #expect(keychain.update(synced, [kSecAttrSynchronizable as String: false]) == errSecSuccess)
        #expect(keychain.secret(genericPassword()) == Data("s".utf8))
    }

    @Test("Persistent references survive updates of key attributes, data and label")
    func referenceSurvivesUpdates() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("s".utf8)])) == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword()))
        #expect(keychain.update(genericPassword(), [
            kSecAttrAccount as String: "renamed",
            kSecAttrService as String: "other.example",
            kSecAttrLabel as String: "label",
            kSecValueData as String: Data("t".utf8),
        ]) == errSecSuccess)
        let found = keychain.copyMatching([
            kSecValuePersistentRef as String: reference,
            kSecReturnAttributes as String: true,
            kSecReturnData as String: true,
        ])
        let dictionary = try #require(found.result as? [String: Any])
        #expect(dictionary[kSecAttrAccount as String] as? String == "renamed")
        #expect(dictionary[kSecAttrService as String] as? String == "other.example")
        #expect(dictionary[kSecValueData as String] as? Data == Data("t".utf8))
        #expect(keychain.persistentReference(genericPassword(account: "renamed", service: "other.example")) == reference)
    }

    // MARK: Identical values

    @Test("Updating to identical values succeeds")
    func identicalUpdate() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([
            kSecAttrLabel as String: "label",
            kSecValueData as String: Data("s".utf8),
        ])) == errSecSuccess)
        #expect(keychain.update(genericPassword(), [kSecAttrLabel as String: "label"]) == errSecSuccess)
        #expect(keychain.update(genericPassword(), [
            kSecAttrAccount as String: "alice",
            kSecAttrService as String: "example.com",
            kSecAttrAccessGroup as String: "com.example.app",
            kSecAttrSynchronizable as String: false,
            kSecValueData as String: Data("s".utf8),
        ]) == errSecSuccess)
        #expect(keychain.count(genericPassword()) == 1)
        #expect(label(keychain, genericPassword()) == "label")
        #expect(keychain.secret(genericPassword()) == Data("s".utf8))
    }
}
