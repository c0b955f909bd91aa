import Foundation
@testable import SwiftKeychain
import Security
import Testing
import TestSupport

@Suite struct MigrationTests {
    let keychainFiles = PrivateKeychain()
    let destination = Keychain(service: "com.example.new")

    /// Items as code using SecItem directly left them: service "legacy", two accounts.
    func addLegacyItems() {
        for (account, secret) in [("alice", "a-secret"), ("bob", "b-secret")] {
            var item = genericPassword(account: account, service: "legacy")
            item[kSecValueData as String] = Data(secret.utf8)
            item[kSecAttrLabel as String] = "legacy \(account)"
            #expect(keychainFiles.add(item) == errSecSuccess)
        }
    }

    let legacyQuery: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: "legacy",
    ]

    @Test func movesMatchingItemsAndRemovesTheOriginals() throws {
        try keychainFiles.run { () throws in
            addLegacyItems()
            #expect(try destination.migrateItems(matching: legacyQuery, removeOnCompletion: true) == 2)
            #expect(try destination.allKeys() == ["alice", "bob"])
            #expect(try destination.string(forKey: "bob") == "b-secret")
            #expect(try Keychain(service: "legacy").allKeys() == [])
        }
    }

    @Test func keepsTheOriginalsWhenAskedTo() throws {
        try keychainFiles.run {
            addLegacyItems()
            try destination.migrateItems(matching: legacyQuery, removeOnCompletion: false)
            #expect(try Keychain(service: "legacy").string(forKey: "alice") == "a-secret")
            #expect(try destination.string(forKey: "alice") == "a-secret")
        }
    }

    @Test func nothingToMigrateIsZeroItems() throws {
        try keychainFiles.run { () throws in
            #expect(try destination.migrateItems(matching: legacyQuery, removeOnCompletion: true) == 0)
        }
    }

    @Test func keyAlreadyInTheDestinationFailsBeforeAnyChange() throws {
        try keychainFiles.run {
            addLegacyItems()
            try destination.set("existing", forKey: "bob")
            let error = keychainError { try destination.migrateItems(matching: legacyQuery, removeOnCompletion: true) }
            #expect(error?.status == errSecDuplicateItem)
            #expect(try destination.allKeys() == ["bob"])
            #expect(try destination.string(forKey: "bob") == "existing")
            #expect(try Keychain(service: "legacy").allKeys() == ["alice", "bob"])
        }
    }

    @Test func twoSourcesWithOneKeyFailBeforeAnyChange() throws {
        try keychainFiles.run { () throws in
            addLegacyItems()
            var other = genericPassword(account: "alice", service: "legacy-2")
            other[kSecValueData as String] = Data("other".utf8)
            #expect(keychainFiles.add(other) == errSecSuccess)
            let everyPassword: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
            let error = keychainError { try destination.migrateItems(matching: everyPassword, removeOnCompletion: true) }
            #expect(error?.status == errSecDuplicateItem)
            #expect(try destination.allKeys() == [])
            #expect(try Keychain(service: "legacy-2").allKeys() == ["alice"])
        }
    }

    /// An account may be data; one that is not text cannot become a key.
    @Test func accountThatIsNotTextFailsBeforeAnyChange() throws {
        try keychainFiles.run { () throws in
            addLegacyItems()
            var binary = genericPassword(account: "", service: "legacy")
            binary[kSecAttrAccount as String] = Data([0xFF, 0x00])
            #expect(keychainFiles.add(binary) == errSecSuccess)
            let error = keychainError { try destination.migrateItems(matching: legacyQuery, removeOnCompletion: true) }
            #expect(error?.status == errSecDecode)
            #expect(try destination.allKeys() == [])
            // allKeys would fail on the binary account too; the others are still there.
            #expect(try Keychain(service: "legacy").string(forKey: "alice") == "a-secret")
            #expect(try Keychain(service: "legacy").string(forKey: "bob") == "b-secret")
        }
    }

    @Test(arguments: [
        ["svce": "legacy"],
        ["class": "keys"],
        ["class": "genp", "r_Data": true],
        ["class": "genp", "m_Limit": "m_LimitAll"],
    ] as [[String: any Sendable]])
    func badQueryIsAParamError(query: [String: any Sendable]) throws {
        try keychainFiles.run { () throws in
            addLegacyItems()
            let error = keychainError { try destination.migrateItems(matching: query, removeOnCompletion: true) }
            #expect(error?.status == errSecParam)
            #expect(try Keychain(service: "legacy").allKeys() == ["alice", "bob"])
        }
    }

    @Test func movesItemsFromAnotherConfiguration() async throws {
        try await keychainFiles.run {
            let old = Keychain(server: "example.com", protocol: .https)
            try await old.async.set("pw", forKey: "alice")
            #expect(try await destination.async.migrateItems(from: old, removeOnCompletion: true) == 1)
            #expect(try await destination.async.string(forKey: "alice") == "pw")
            #expect(try await old.async.contains("alice") == false)
        }
    }

    @Test func aKeychainCannotMigrateFromItself() throws {
        try keychainFiles.run { () throws in
            let error = keychainError {
                try destination.migrateItems(from: destination.label("other options"), removeOnCompletion: true)
            }
            #expect(error?.status == errSecParam)
        }
    }

    /// The rollback a failure triggers: removed originals come back with their secret and
    /// attributes, and the copies go.
    @Test func rollbackRestoresOriginalsAndRemovesCopies() throws {
        try keychainFiles.run {
            addLegacyItems()
            let sources = try MigrationSource.collect(matching: legacyQuery)
            var journal = MigrationJournal(destination: destination)
            for source in sources { try journal.addCopy(of: source) }
            try journal.removeOriginal(sources[0])
            #expect(try Keychain(service: "legacy").allKeys() == ["bob"])

            let failure = KeychainError(status: errSecIO)
            #expect(journal.rollBack(after: failure) == failure)

            #expect(try destination.allKeys() == [])
            let legacy = Keychain(service: "legacy")
            #expect(try legacy.string(forKey: "alice") == "a-secret")
            #expect(try legacy.allItems().first { $0.key == "alice" }?.label == "legacy alice")
        }
    }
}
