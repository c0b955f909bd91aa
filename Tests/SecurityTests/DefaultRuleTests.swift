import Foundation
import Security
import Testing
import TestSupport

/// What an absent synchronizable flag, accessibility, access group and dates mean.
@Suite("Default rules")
struct DefaultRuleTests {
    private let syncTrue = [kSecAttrSynchronizable as String: true]
    private let syncAny = [kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]

    // MARK: Synchronizable

    @Test("Absent synchronizable means sync = 0 on add")
    func absentSyncIsZeroOnAdd() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let attributes = try #require(keychain.attributes(genericPassword()).attributes)
        let sync = try #require(attributes[kSecAttrSynchronizable as String] as? NSNumber)
        #expect(sync.intValue == 0)
        #expect(keychain.count(genericPassword().with(syncTrue)) == 0)
    }

    @Test("A synchronizable item is invisible to a search without the flag")
    func syncItemInvisibleByDefault() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with(syncTrue)) == errSecSuccess)
        #expect(keychain.copyMatching(genericPassword()).status == errSecItemNotFound)
        #expect(keychain.copyMatching(genericPassword().with([kSecAttrSynchronizable as String: false])).status
            == errSecItemNotFound)
        #expect(keychain.copyMatching(genericPassword().with(syncTrue)).status == errSecSuccess)
        #expect(keychain.copyMatching(genericPassword().with(syncAny)).status == errSecSuccess)
        let attributes = try #require(keychain.attributes(genericPassword().with(syncTrue)).attributes)
        #expect((attributes[kSecAttrSynchronizable as String] as? NSNumber)?.intValue == 1)
    }

    @Test("True finds only synchronizable items, absent only the others, syna both")
    func syncFilters() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrLabel as String: "local"])) == errSecSuccess)
        #expect(keychain.add(genericPassword().with(syncTrue).with([kSecAttrLabel as String: "synced"]))
            == errSecSuccess)
        #expect(keychain.attributes(genericPassword()).attributes?[kSecAttrLabel as String] as? String == "local")
        #expect(keychain.attributes(genericPassword().with(syncTrue)).attributes?[kSecAttrLabel as String] as? String
            == "synced")
        #expect(keychain.count(genericPassword()) == 1)
        #expect(keychain.count(genericPassword().with(syncTrue)) == 1)
        #expect(keychain.count(genericPassword().with(syncAny)) == 2)
    }

    @Test("Accepted values are Bool, Number and \"0\"/\"1\"", arguments: 0..<6)
    func acceptedSyncValues(index: Int) throws {
        let (value, expected): (Any, Int) = [
            (true, 1), (false, 0), (1, 1), (0, 0), ("1", 1), ("0", 0),
        ][index]
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrSynchronizable as String: value])) == errSecSuccess)
        let attributes = try #require(keychain.attributes(genericPassword().with(syncAny)).attributes)
        #expect((attributes[kSecAttrSynchronizable as String] as? NSNumber)?.intValue == expected)
        #expect(keychain.copyMatching(genericPassword().with([kSecAttrSynchronizable as String: value])).status
            == errSecSuccess)
    }

    @Test("Other synchronizable values are errSecParam")
    func badSyncValues() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrSynchronizable as String: "yes"])) == errSecParam)
        #expect(keychain.add(genericPassword().with([kSecAttrSynchronizable as String: Data([1])])) == errSecParam)
        #expect(keychain.add(genericPassword().with([kSecAttrSynchronizable as String: NSNull()])) == errSecParam)
        #expect(keychain.copyMatching(genericPassword().with([kSecAttrSynchronizable as String: "true"])).status
            == errSecParam)
        #expect(keychain.count(genericPassword().with(syncAny)) == 0)
    }

    @Test("Update and delete without the flag touch only non-synchronizable items")
    func updateAndDeleteDefaultToNonSync() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrLabel as String: "local"])) == errSecSuccess)
        #expect(keychain.add(genericPassword().with(syncTrue).with([kSecAttrLabel as String: "synced"]))
            == errSecSuccess)

        #expect(keychain.update(genericPassword(), [kSecAttrLabel as String: "changed"]) == errSecSuccess)
        #expect(keychain.attributes(genericPassword()).attributes?[kSecAttrLabel as String] as? String == "changed")
        #expect(keychain.attributes(genericPassword().with(syncTrue)).attributes?[kSecAttrLabel as String] as? String
            == "synced")

        #expect(keychain.delete(genericPassword()) == errSecSuccess)
        #expect(keychain.count(genericPassword()) == 0)
        #expect(keychain.count(genericPassword().with(syncTrue)) == 1)
        // Now only a synchronizable item is left: a delete without the flag finds nothing.
        #expect(keychain.delete(genericPassword()) == errSecItemNotFound)
        #expect(keychain.update(genericPassword(), [kSecAttrLabel as String: "x"]) == errSecItemNotFound)
    }

    @Test("Update and delete with true touch only synchronizable items; syna touches both")
    func updateAndDeleteWithSyncFlag() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrLabel as String: "local"])) == errSecSuccess)
        #expect(keychain.add(genericPassword().with(syncTrue).with([kSecAttrLabel as String: "synced"]))
            == errSecSuccess)
        #expect(keychain.update(genericPassword().with(syncTrue), [kSecAttrLabel as String: "s2"]) == errSecSuccess)
        #expect(keychain.attributes(genericPassword()).attributes?[kSecAttrLabel as String] as? String == "local")
        #expect(keychain.update(genericPassword().with(syncAny), [kSecAttrComment as String: "both"]) == errSecSuccess)
        #expect(keychain.count(genericPassword().with(syncAny).with([kSecAttrComment as String: "both"])) == 2)
        #expect(keychain.delete(genericPassword().with(syncAny)) == errSecSuccess)
        #expect(keychain.count(genericPassword().with(syncAny)) == 0)
    }

    @Test("A lookup by persistent reference ignores the synchronizable default")
    func persistentReferenceIgnoresSync() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with(syncTrue).with([kSecValueData as String: Data("s".utf8)]))
            == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword().with(syncTrue)))
        let byReference: [String: Any] = [kSecValuePersistentRef as String: reference]
        let found = keychain.copyMatching(byReference.with([kSecReturnData as String: true]))
        #expect(found.status == errSecSuccess)
        #expect(found.result as? Data == Data("s".utf8))
        #expect(keychain.update(byReference, [kSecAttrLabel as String: "by-ref"]) == errSecSuccess)
        #expect(keychain.attributes(genericPassword().with(syncTrue)).attributes?[kSecAttrLabel as String] as? String
            == "by-ref")
        #expect(keychain.delete(byReference) == errSecSuccess)
        #expect(keychain.count(genericPassword().with(syncAny)) == 0)
    }

    // MARK: Default accessibility

    @Test("Accessibility absent on add is kSecAttrAccessibleWhenUnlocked for passwords and keys")
    func defaultAccessibility() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        #expect(keychain.add(specInternetPassword()) == errSecSuccess)
        #expect(keychain.add(specKey()) == errSecSuccess)
        for query in [genericPassword(), specInternetPassword(), specKey()] {
            let attributes = try #require(keychain.attributes(query).attributes)
            #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
        }
        #expect(keychain.count(genericPassword().with([
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
        ])) == 1)
    }

    @Test("Accessibility absent on add is kSecAttrAccessibleAlways for certificates")
    func defaultCertificateAccessibility() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(specCertificate()) == errSecSuccess)
        let attributes = try #require(keychain.attributes(specCertificate()).attributes)
        #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAlways as String)
        #expect(keychain.count(specCertificate().with([
            kSecAttrAccessible as String: kSecAttrAccessibleAlways,
        ])) == 1)
    }

    // MARK: Default access group

    @Test("Access group absent on add is the caller's first group")
    func defaultAccessGroup() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let attributes = try #require(keychain.attributes(genericPassword()).attributes)
        #expect(attributes[kSecAttrAccessGroup as String] as? String == "com.example.app")

        let reversed = keychain.asCaller(["com.example.shared", "com.example.app"])
        #expect(reversed.add(genericPassword(account: "bob")) == errSecSuccess)
        let bob = try #require(reversed.attributes(genericPassword(account: "bob")).attributes)
        #expect(bob[kSecAttrAccessGroup as String] as? String == "com.example.shared")
    }

    @Test("A search without a group covers all of the caller's groups")
    func searchCoversAllGroups() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrAccessGroup as String: "com.example.app"])) == errSecSuccess)
        #expect(keychain.add(genericPassword().with([kSecAttrAccessGroup as String: "com.example.shared"]))
            == errSecSuccess)
        #expect(keychain.count(genericPassword()) == 2)
        #expect(keychain.count(genericPassword().with([kSecAttrAccessGroup as String: "com.example.shared"])) == 1)
        let sharedOnly = keychain.asCaller(["com.example.shared"])
        #expect(sharedOnly.count(genericPassword()) == 1)
        #expect(sharedOnly.attributes(genericPassword()).attributes?[kSecAttrAccessGroup as String] as? String
            == "com.example.shared")
    }

    @Test("Items in other groups are invisible: errSecItemNotFound")
    func otherGroupsInvisible() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("s".utf8)])) == errSecSuccess)
        let other = keychain.asCaller(["com.other.app"])
        #expect(other.copyMatching(genericPassword()).status == errSecItemNotFound)
        #expect(other.copyMatching([kSecClass as String: kSecClassGenericPassword]).status == errSecItemNotFound)
        #expect(other.update(genericPassword(), [kSecValueData as String: Data("stolen".utf8)]) == errSecItemNotFound)
        #expect(other.delete(genericPassword()) == errSecItemNotFound)
        // The other caller may add its own item with the same account and service.
        #expect(other.add(genericPassword()) == errSecSuccess)
        #expect(keychain.secret(genericPassword()) == Data("s".utf8))
        #expect(keychain.count(genericPassword()) == 1)
    }

    @Test("A persistent reference does not reach into another caller's groups")
    func persistentReferenceRespectsGroups() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let reference = try #require(keychain.persistentReference(genericPassword()))
        let other = keychain.asCaller(["com.other.app"])
        #expect(other.copyMatching([kSecValuePersistentRef as String: reference]).status == errSecItemNotFound)
        #expect(other.delete([kSecValuePersistentRef as String: reference]) == errSecItemNotFound)
        #expect(keychain.count(genericPassword()) == 1)
    }

    @Test("A caller holding \"*\" sees and names every group, and adds to its first other group")
    func everyGroupWildcard() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrAccessGroup as String: "com.example.shared"]))
            == errSecSuccess)
        #expect(keychain.asCaller(["com.other.app"]).add(genericPassword()) == errSecSuccess)

        let tool = keychain.asCaller(["com.example.tool", "*"])
        #expect(tool.count(genericPassword()) == 2)
        #expect(tool.count(genericPassword().with([kSecAttrAccessGroup as String: "com.other.app"])) == 1)
        #expect(tool.add(genericPassword(account: "bob")) == errSecSuccess)
        let bob = try #require(tool.attributes(genericPassword(account: "bob")).attributes)
        #expect(bob[kSecAttrAccessGroup as String] as? String == "com.example.tool")
        #expect(tool.update(genericPassword().with([kSecAttrAccessGroup as String: "com.other.app"]),
                            [kSecAttrLabel as String: "seen"]) == errSecSuccess)
        #expect(tool.delete(genericPassword().with([kSecAttrAccessGroup as String: "com.example.shared"]))
            == errSecSuccess)
        #expect(tool.count(genericPassword()) == 1)
        // "*" is a permission, not a group an item can be in; alone, it gives no group for adds.
        #expect(tool.add(genericPassword(account: "carol").with([kSecAttrAccessGroup as String: "*"]))
            == errSecMissingEntitlement)
        #expect(keychain.asCaller(["*"]).add(genericPassword(account: "dave")) == errSecMissingEntitlement)
        #expect(keychain.asCaller(["*"]).count(genericPassword()) == 1)
    }

    // MARK: Creation and modification dates

    @Test("Add sets cdat = mdat = now")
    func addSetsDates() throws {
        let keychain = PrivateKeychain()
        let before = Date()
        #expect(keychain.add(genericPassword()) == errSecSuccess)
        let after = Date()
        let attributes = try #require(keychain.attributes(genericPassword()).attributes)
        let created = try #require(attributes[kSecAttrCreationDate as String] as? Date)
        let modified = try #require(attributes[kSecAttrModificationDate as String] as? Date)
        #expect(created == modified)
        #expect(created >= before && created <= after)
    }

    @Test("Dates passed to add are overridden")
    func addOverridesDates() throws {
        let keychain = PrivateKeychain()
        let past = Date(timeIntervalSince1970: 0)
        let future = Date(timeIntervalSinceNow: 10 * 365 * 86_400)
        let before = Date()
        #expect(keychain.add(genericPassword().with([
            kSecAttrCreationDate as String: past,
            kSecAttrModificationDate as String: future,
        ])) == errSecSuccess)
        let after = Date()
        let attributes = try #require(keychain.attributes(genericPassword()).attributes)
        let created = try #require(attributes[kSecAttrCreationDate as String] as? Date)
        let modified = try #require(attributes[kSecAttrModificationDate as String] as? Date)
        #expect(created >= before && created <= after)
        #expect(modified >= before && modified <= after)
        #expect(created == modified)
    }
}
