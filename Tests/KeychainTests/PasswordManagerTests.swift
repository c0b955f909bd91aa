import Foundation
@testable import SwiftKeychain
import Security
import Testing
import TestSupport

@Suite struct PasswordManagerTests {
    let keychainFiles = PrivateKeychain()
    let manager = PasswordManager()

    /// The item UYLPasswordManager would find: its service, the identifier as account.
    func storedItem(_ identifier: String, returning returnKey: CFString = kSecReturnAttributes) -> CFTypeRef? {
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "UYLPasswordManager",
            kSecAttrAccount as String: identifier,
            returnKey as String: true,
        ]
        _ = KeychainEnvironment.withValue(keychainFiles.environment) { SecItemCopyMatching(query as CFDictionary, &result) }
        return result
    }

    @Test func registerValidateAndDelete() throws {
        try keychainFiles.run {
            #expect(try manager.validKey(nil, forIdentifier: "alice") == false)
            try manager.registerKey("s3cr3t", forIdentifier: "alice")
            #expect(try manager.validKey("s3cr3t", forIdentifier: "alice"))
            #expect(try manager.validKey("s3cr3T", forIdentifier: "alice") == false)
            #expect(try manager.validKey("s3cr3", forIdentifier: "alice") == false)
            #expect(try manager.validKey(nil, forIdentifier: "alice"))
            #expect(try manager.key(forIdentifier: "alice") == "s3cr3t")
            #expect(try manager.key(forIdentifier: "bob") == nil)

            #expect(try manager.deleteKey(forIdentifier: "alice"))
            #expect(try manager.validKey(nil, forIdentifier: "alice") == false)
            #expect(try manager.key(forIdentifier: "alice") == nil)
            // Deleting again is not an error, as in the original.
            #expect(try manager.deleteKey(forIdentifier: "alice") == false)
        }
    }

    /// The original's layout, so items written by UYLPasswordManager are found: service
    /// "UYLPasswordManager", identifier as account and generic attribute, key as UTF-8 data.
    @Test func storesTheItemAsUYLPasswordManagerDoes() throws {
        try keychainFiles.run { try manager.registerKey("pässword", forIdentifier: "user@example.com") }
        #expect(storedItem("user@example.com", returning: kSecReturnData) as? Data == Data("pässword".utf8))
        let attributes = try #require(storedItem("user@example.com") as? [String: Any])
        #expect(attributes[kSecAttrGeneric as String] as? Data == Data("user@example.com".utf8))
    }

    /// An item written the original's way through Keychain Services is read and validated.
    @Test func readsAnItemWrittenByTheOriginal() throws {
        let identifier = Data("carol".utf8)
        #expect(keychainFiles.add([
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "UYLPasswordManager",
            kSecAttrAccount as String: identifier,
            kSecAttrGeneric as String: identifier,
            kSecValueData as String: Data("from-objc".utf8),
        ]) == errSecSuccess)
        try keychainFiles.run { () throws in
            #expect(try manager.key(forIdentifier: "carol") == "from-objc")
            #expect(try manager.validKey("from-objc", forIdentifier: "carol"))
        }
    }

    /// Rules 14 and 29: a second register updates the one item (no duplicate), replacing the
    /// key and applying the accessibility selected now, as the original's update does.
    @Test func secondRegisterReplacesTheKeyAndAccessibility() throws {
        try keychainFiles.run {
            try manager.registerKey("first", forIdentifier: "dave")
            manager.accessMode = .always
            try manager.registerKey("second", forIdentifier: "dave")
            #expect(try manager.key(forIdentifier: "dave") == "second")
            #expect(try manager.validKey("first", forIdentifier: "dave") == false)
        }
        let attributes = try #require(storedItem("dave") as? [String: Any])
        #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAlways as String)
        var all: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "UYLPasswordManager",
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
        ]
        _ = KeychainEnvironment.withValue(keychainFiles.environment) { SecItemCopyMatching(query as CFDictionary, &all) }
        #expect((all as? [[String: Any]])?.count == 1)
    }

    @Test func defaultsAreMigratableWhenUnlocked() throws {
        #expect(manager.migrate == true)
        #expect(manager.accessMode == .whenUnlocked)
        try keychainFiles.run { try manager.registerKey("k", forIdentifier: "erin") }
        let attributes = try #require(storedItem("erin") as? [String: Any])
        #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
    }

    /// The stored kSecAttrAccessible is the original's mapping of accessMode and
    /// migrate (migrate false selects the ThisDeviceOnly variant).
    @Test(arguments: [
        (PasswordManager.AccessMode.whenUnlocked, true, kSecAttrAccessibleWhenUnlocked as String),
        (.whenUnlocked, false, kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String),
        (.afterFirstUnlock, true, kSecAttrAccessibleAfterFirstUnlock as String),
        (.afterFirstUnlock, false, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String),
        (.always, true, kSecAttrAccessibleAlways as String),
        (.always, false, kSecAttrAccessibleAlwaysThisDeviceOnly as String),
    ])
    func accessModeAndMigrateSelectTheAccessibility(mode: PasswordManager.AccessMode, migrate: Bool, expected: String) throws {
        manager.accessMode = mode
        manager.migrate = migrate
        #expect(manager.accessibility.rawValue == expected)
        try keychainFiles.run { try manager.registerKey("k", forIdentifier: "frank") }
        let attributes = try #require(storedItem("frank") as? [String: Any])
        #expect(attributes[kSecAttrAccessible as String] as? String == expected)
    }

    /// purge forgets the key held in memory and leaves the keychain alone, as the original's.
    @Test func purgeClearsTheCachedKeyButNotTheItem() throws {
        try keychainFiles.run {
            try manager.registerKey("k", forIdentifier: "grace")
            #expect(manager.hasCachedKey)
            manager.purge()
            #expect(!manager.hasCachedKey)
            #expect(try manager.key(forIdentifier: "grace") == "k")
            #expect(manager.hasCachedKey)
            manager.purge()
            #expect(!manager.hasCachedKey)
            #expect(try manager.validKey("k", forIdentifier: "grace"))
            try manager.deleteKey(forIdentifier: "grace")
            #expect(!manager.hasCachedKey)
        }
    }

    /// Every read goes to the keychain: a key changed by another process is seen at once.
    @Test func readsNeverServeAStaleCachedKey() throws {
        try keychainFiles.run {
            try manager.registerKey("old", forIdentifier: "heidi")
            #expect(try manager.validKey("old", forIdentifier: "heidi"))
            let other = PasswordManager()
            try other.registerKey("new", forIdentifier: "heidi")
            #expect(try manager.validKey("old", forIdentifier: "heidi") == false)
            #expect(try manager.key(forIdentifier: "heidi") == "new")
        }
    }

    @Test func constantTimeComparisonIsCorrect() {
        func equals(_ lhs: String, _ rhs: String) -> Bool { ConstantTimeComparison.equals(lhs.utf8, rhs.utf8) }
        #expect(equals("", ""))
        #expect(equals("s3cr3t", "s3cr3t"))
        #expect(!equals("s3cr3t", "s3cr3T"))
        #expect(!equals("s3cr3t", "x3cr3t"))
        #expect(!equals("s3cr3t", "s3cr3"))
        #expect(!equals("s3cr3", "s3cr3t"))
        #expect(!equals("", "a"))
        #expect(!equals("a", ""))
        // A longer key that matches the stored one and then has zero bytes must not match.
        #expect(!ConstantTimeComparison.equals([0x61], [0x61, 0x00]))
        // Bytes, not canonical equivalence: precomposed and decomposed "é" differ, as
        // NSString's isEqual: would say.
        #expect(!equals("\u{E9}", "e\u{301}"))
    }

    /// Rules 9 and 12: a group puts the item in that group and limits searches to it; no
    /// group adds to the first group and searches all of the caller's groups.
    @Test func groups() throws {
        try keychainFiles.run {
            try manager.registerKey("shared-key", forIdentifier: "ivan", inGroup: "com.example.shared")
            #expect(try manager.key(forIdentifier: "ivan", inGroup: "com.example.shared") == "shared-key")
            #expect(try manager.key(forIdentifier: "ivan", inGroup: "com.example.app") == nil)
            #expect(try manager.validKey(nil, forIdentifier: "ivan", inGroup: "com.example.app") == false)
            #expect(try manager.key(forIdentifier: "ivan") == "shared-key")

            // No sticky group: after a call with a group, a call without one uses the default.
            try manager.registerKey("default-key", forIdentifier: "judy")
            #expect(try manager.key(forIdentifier: "judy", inGroup: "com.example.app") == "default-key")

            #expect(try manager.deleteKey(forIdentifier: "ivan", inGroup: "com.example.app") == false)
            #expect(try manager.deleteKey(forIdentifier: "ivan", inGroup: "com.example.shared"))
            #expect(try manager.validKey(nil, forIdentifier: "ivan") == false)
        }
        let attributes = try #require(storedItem("judy") as? [String: Any])
        #expect(attributes[kSecAttrAccessGroup as String] as? String == "com.example.app")
    }

    /// A group the process does not hold is an error, not "not found"; the error
    /// does not show the key.
    @Test func groupNotHeldThrowsMissingEntitlement() throws {
        try keychainFiles.run {
            let register = try #require(keychainError { try manager.registerKey("hunter2-secret", forIdentifier: "k", inGroup: "com.other") })
            #expect(register.status == errSecMissingEntitlement)
            #expect(!register.description.contains("hunter2-secret"))
            #expect(keychainError { _ = try manager.key(forIdentifier: "k", inGroup: "com.other") }?.status == errSecMissingEntitlement)
            #expect(keychainError { _ = try manager.validKey("x", forIdentifier: "k", inGroup: "com.other") }?.status == errSecMissingEntitlement)
            #expect(keychainError { _ = try manager.validKey(nil, forIdentifier: "k", inGroup: "com.other") }?.status == errSecMissingEntitlement)
            #expect(keychainError { try manager.deleteKey(forIdentifier: "k", inGroup: "com.other") }?.status == errSecMissingEntitlement)
        }
    }

    @Test func storedKeyThatIsNotTextIsADecodeError() throws {
        let identifier = Data("mallory".utf8)
        #expect(keychainFiles.add([
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "UYLPasswordManager",
            kSecAttrAccount as String: identifier,
            kSecAttrGeneric as String: identifier,
            kSecValueData as String: Data([0xFF, 0xFE]),
        ]) == errSecSuccess)
        try keychainFiles.run {
            #expect(keychainError { _ = try manager.key(forIdentifier: "mallory") }?.status == errSecDecode)
            // Existence needs no decoding, and a register replaces the bad key (no duplicate).
            #expect(try manager.validKey(nil, forIdentifier: "mallory"))
            try manager.registerKey("fixed", forIdentifier: "mallory")
            #expect(try manager.key(forIdentifier: "mallory") == "fixed")
        }
    }

    @Test func dumpDoesNotShowTheCachedKey() throws {
        try keychainFiles.run {
            try manager.registerKey("hunter2-very-secret", forIdentifier: "oscar")
            #expect(try manager.key(forIdentifier: "oscar") == "hunter2-very-secret")
        }
        var dumped = ""
        dump(manager, to: &dumped)
        #expect(!dumped.contains("hunter2-very-secret"))
        #expect(!String(reflecting: manager).contains("hunter2-very-secret"))
        #expect(dumped.contains("migrate"))
    }

    /// The only test that changes or drops the process-wide shared instance (a documentation
    /// sample only registers and deletes a key through it).
    @Test func sharedInstanceAndDropShared() {
        let shared = PasswordManager.shared
        #expect(PasswordManager.shared === shared)
        shared.migrate = false
        shared.accessMode = .always
        PasswordManager.dropShared()
        let fresh = PasswordManager.shared
        #expect(fresh !== shared)
        #expect(fresh.migrate == true)
        #expect(fresh.accessMode == .whenUnlocked)
        // An instance obtained before the drop keeps its settings.
        #expect(shared.migrate == false)
    }

    /// Several tasks sharing one manager, as they share `shared`: each sees its own key.
    @Test func concurrentUseOfOneManager() async throws {
        try await keychainFiles.run {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        manager.accessMode = index.isMultiple(of: 2) ? .afterFirstUnlock : .always
                        try manager.registerKey("key-\(index)", forIdentifier: "user-\(index)")
                        #expect(try manager.validKey("key-\(index)", forIdentifier: "user-\(index)"))
                        #expect(try manager.key(forIdentifier: "user-\(index)") == "key-\(index)")
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}
