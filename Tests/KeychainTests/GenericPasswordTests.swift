import Foundation
import Keychain
import Security
import Testing
import TestSupport

@Suite struct GenericPasswordTests {
    let keychainFiles = PrivateKeychain()
    let keychain = Keychain(service: "com.example.api")

    @Test func savedTextReadsBackAndIsAnOrdinaryGenericPassword() throws {
        try keychainFiles.run {
            try keychain.set("s3cr3t", forKey: "deploy-bot")
            #expect(try keychain.string(forKey: "deploy-bot") == "s3cr3t")
            // Code using SecItem directly finds it by service and account, as UTF-8 bytes.
            var result: CFTypeRef?
            var query = genericPassword(account: "deploy-bot", service: "com.example.api")
            query[kSecReturnData as String] = true
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("s3cr3t".utf8))
        }
    }

    @Test func missingItemReadsAsNilNotAsAnError() throws {
        try keychainFiles.run { () throws in
            #expect(try keychain.string(forKey: "absent") == nil)
            #expect(try keychain.data(forKey: "absent") == nil)
            #expect(try keychain.value(forKey: "absent", as: Int.self) == nil)
            #expect(try keychain.decode([String].self, forKey: "absent") == nil)
            #expect(try keychain["absent"] == nil)
            #expect(try keychain.contains("absent") == false)
            #expect(try keychain.remove("absent") == false)
            #expect(try keychain.allKeys() == [])
            #expect(try keychain.allItems() == [])
        }
    }

    /// Rules 32 and 38: a save of an existing item is an update, so the item keeps its
    /// identity (persistent reference) and creation date; a delete-then-add would change both.
    @Test func savingAgainUpdatesTheSameItem() throws {
        try keychainFiles.run {
            try keychain.set("first", forKey: "token")
            let query = genericPassword(account: "token", service: "com.example.api")
            let reference = try #require(keychainFiles.persistentReference(query))
            let created = try #require(try keychain.allItems().first?.creationDate)

            try keychain.set("second", forKey: "token")

            #expect(try keychain.string(forKey: "token") == "second")
            #expect(keychainFiles.persistentReference(query) == reference)
            let item = try #require(try keychain.allItems().first)
            #expect(item.creationDate == created)
            #expect(try #require(item.modificationDate) > created)
            #expect(try keychain.allKeys() == ["token"])
        }
    }

    @Test func subscriptReadsTextAndTypedValues() throws {
        try keychainFiles.run {
            try keychain.set("abc", forKey: "text")
            try keychain.set(3, forKey: "count")
            #expect(try keychain["text"] == "abc")
            #expect(try keychain["count", as: Int.self] == 3)
        }
    }

    @Test func containsAndRemove() throws {
        try keychainFiles.run {
            try keychain.set(Data([1, 2, 3]), forKey: "blob")
            #expect(try keychain.contains("blob"))
            #expect(try keychain.remove("blob"))
            #expect(try keychain.contains("blob") == false)
            #expect(try keychain.data(forKey: "blob") == nil)
        }
    }

    @Test func servicesDoNotSeeEachOthersItems() throws {
        try keychainFiles.run {
            let other = Keychain(service: "com.example.other")
            try keychain.set("mine", forKey: "shared-key")
            try other.set("theirs", forKey: "shared-key")
            #expect(try keychain.string(forKey: "shared-key") == "mine")
            #expect(try other.string(forKey: "shared-key") == "theirs")
            try other.removeAll()
            #expect(try keychain.allKeys() == ["shared-key"])
            #expect(try other.allKeys() == [])
        }
    }

    /// Listings come in insertion order; an update does not move an item.
    @Test func allKeysAreInInsertionOrder() throws {
        try keychainFiles.run {
            for key in ["zeta", "alpha", "mid"] { try keychain.set(key, forKey: key) }
            try keychain.set("changed", forKey: "zeta")
            #expect(try keychain.allKeys() == ["zeta", "alpha", "mid"])
            #expect(try keychain.allItems().map(\.key) == ["zeta", "alpha", "mid"])
        }
    }

    /// The item's attributes are those Keychain Services returns.
    @Test func allItemsCarryValuesAndAttributes() throws {
        try keychainFiles.run {
            let labelled = keychain.label("API token").comment("rotated monthly").accessibility(.afterFirstUnlock)
            try labelled.set("tok", forKey: "ci")
            try keychain.set(true, forKey: "flag")

            let items = try keychain.allItems()
            #expect(items.map(\.key) == ["ci", "flag"])
            let token = items[0]
            #expect(try token.value(as: String.self) == "tok")
            #expect(token.label == "API token")
            #expect(token.comment == "rotated monthly")
            #expect(token.accessibility == .afterFirstUnlock)
            #expect(token.accessGroup == "com.example.app")  // The caller's first group.
            #expect(token.synchronizable == false)
            #expect(token.creationDate != nil)
            #expect(token.attributes[kSecAttrService as String] == .string("com.example.api"))
            #expect(try items[1].value(as: Bool.self) == true)
            #expect(items[1].label == nil)  // Unset attributes are absent.
        }
    }

    /// removeAll removes synchronizable items as well.
    @Test func removeAllIncludesSynchronizableItems() throws {
        try keychainFiles.run {
            try keychain.set("local", forKey: "a")
            try keychain.synchronizable(true).set("synced", forKey: "b")
            try Keychain(service: "com.example.keep").set("kept", forKey: "c")

            try keychain.removeAll()

            #expect(try keychain.allKeys() == [])
            #expect(try keychain.synchronizable(true).allKeys() == [])
            #expect(try Keychain(service: "com.example.keep").allKeys() == ["c"])
        }
    }
}
