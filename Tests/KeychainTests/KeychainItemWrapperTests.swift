import Foundation
import Keychain
import Security
import Testing
import TestSupport

@Suite struct KeychainItemWrapperTests {
    let keychainFiles = PrivateKeychain()

    /// The attributes and data of the item with a kSecAttrGeneric, through Keychain Services.
    func storedItem(generic identifier: String) -> [String: Any]? {
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrGeneric as String: identifier,
            kSecReturnAttributes as String: true,
            kSecReturnData as String: true,
        ]
        let status = KeychainEnvironment.withValue(keychainFiles.environment) { SecItemCopyMatching(query as CFDictionary, &result) }
        return status == errSecSuccess ? result as? [String: Any] : nil
    }

    @Test func newWrapperHoldsTheSampleDefaultsAndWritesNothing() throws {
        let wrapper = try keychainFiles.run { try KeychainItemWrapper(identifier: "com.ICF.Keychain.pin", accessGroup: nil) }
        #expect(wrapper.object(forKey: kSecAttrAccount) as? String == "")
        #expect(wrapper.object(forKey: kSecAttrLabel) as? String == "")
        #expect(wrapper.object(forKey: kSecAttrDescription) as? String == "")
        #expect(wrapper.object(forKey: kSecValueData) as? String == "")
        #expect(wrapper.object(forKey: kSecAttrGeneric) as? String == "com.ICF.Keychain.pin")
        #expect(wrapper.object(forKey: kSecAttrService) == nil)
        #expect(storedItem(generic: "com.ICF.Keychain.pin") == nil)
    }

    /// The book's PIN: accessibility, account, then the PIN; stored as an ordinary generic
    /// password with the PIN as UTF-8 data, and handed back as a String.
    @Test func theBooksPinIsStoredAndReadBack() throws {
        try keychainFiles.run {
            let pin = try KeychainItemWrapper(identifier: "com.ICF.Keychain.pin", accessGroup: nil)
            try pin.setObject(kSecAttrAccessibleWhenUnlocked, forKey: kSecAttrAccessible)
            try pin.setObject("pinIdentifer", forKey: kSecAttrAccount)
            try pin.setObject("1234", forKey: kSecValueData)
            #expect(pin.object(forKey: kSecValueData) as? String == "1234")
        }
        let stored = try #require(storedItem(generic: "com.ICF.Keychain.pin"))
        #expect(stored[kSecValueData as String] as? Data == Data("1234".utf8))
        #expect(stored[kSecAttrAccount as String] as? String == "pinIdentifer")
        #expect(stored[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
        #expect(stored[kSecAttrLabel as String] as? String == "")
    }

    @Test func persistsAcrossWrappersOfTheSameIdentifier() throws {
        try keychainFiles.run {
            let first = try KeychainItemWrapper(identifier: "com.ICF.keychain.securedData", accessGroup: nil)
            try first.setObject("secureDataIdentifer", forKey: kSecAttrAccount)
            try first.setObject(#"{"numberTextField":"4111"}"#, forKey: kSecValueData)
            try first.setObject("Card", forKey: kSecAttrLabel as String)

            let second = try KeychainItemWrapper(identifier: "com.ICF.keychain.securedData", accessGroup: nil)
            #expect(second.object(forKey: kSecValueData) as? String == #"{"numberTextField":"4111"}"#)
            #expect(second.object(forKey: kSecAttrAccount) as? String == "secureDataIdentifer")
            #expect(second.object(forKey: kSecAttrLabel) as? String == "Card")
            #expect(second.object(forKey: kSecAttrCreationDate) is Date)

            // A change through the second wrapper updates the same item, not a copy.
            try second.setObject("5500", forKey: kSecValueData)
            let third = try KeychainItemWrapper(identifier: "com.ICF.keychain.securedData")
            #expect(third.object(forKey: kSecValueData) as? String == "5500")
        }
    }

    @Test func keysWorkAsConstantsAndAsStrings() throws {
        try keychainFiles.run {
            let wrapper = try KeychainItemWrapper(identifier: "keys", accessGroup: nil)
            try wrapper.setObject("by-constant", forKey: kSecAttrAccount)
            #expect(wrapper.object(forKey: kSecAttrAccount as String) as? String == "by-constant")
            try wrapper.setObject("by-string", forKey: kSecAttrAccount as String)
            #expect(wrapper.object(forKey: kSecAttrAccount) as? String == "by-string")
            #expect(wrapper.object(forKey: "acct") as? String == "by-string")
        }
    }

    /// The named keys need no Security import; each is the constant's string, and an
    /// `Accessibility` is stored as its `kSecAttrAccessible` value.
    @Test func namedKeysAreTheConstants() throws {
        #expect(KeychainItemWrapper.Key.account.name == kSecAttrAccount as String)
        #expect(KeychainItemWrapper.Key.valueData.name == kSecValueData as String)
        #expect(KeychainItemWrapper.Key.accessible.name == kSecAttrAccessible as String)
        #expect(Set(KeychainItemWrapper.Key.allCases.map(\.name)).count == KeychainItemWrapper.Key.allCases.count)
        try keychainFiles.run {
            let wrapper = try KeychainItemWrapper(identifier: "named", accessGroup: nil)
            try wrapper.setObject("com.example.named", forKey: .service)
            try wrapper.setObject("carol", forKey: .account)
            try wrapper.setObject(Accessibility.afterFirstUnlock, forKey: .accessible)
            try wrapper.setObject("pw", forKey: .valueData)
            #expect(wrapper.object(forKey: kSecAttrAccount) as? String == "carol")
            #expect(wrapper.object(forKey: .valueData) as? String == "pw")
            let stored = try #require(keychainFiles.attributes(genericPassword(account: "carol", service: "com.example.named")).attributes)
            #expect(stored[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAfterFirstUnlock as String)
            #expect(try Keychain(service: "com.example.named").string(forKey: "carol") == "pw")
        }
    }

    /// The sample's collision quirk, kept (a second add of the same key is a duplicate): the wrapper searches by kSecAttrGeneric
    /// but the item's identity is account + service, so two identifiers that both keep the
    /// empty default account are the same item and the second write is a duplicate.
    @Test func twoIdentifiersWithTheDefaultAccountCollide() throws {
        try keychainFiles.run {
            let pin = try KeychainItemWrapper(identifier: "com.example.pin", accessGroup: nil)
            let card = try KeychainItemWrapper(identifier: "com.example.card", accessGroup: nil)
            try pin.setObject("1234", forKey: kSecValueData)
            let error = try #require(keychainError { try card.setObject("4111", forKey: kSecValueData) })
            #expect(error.status == errSecDuplicateItem)
            #expect(!error.description.contains("4111"))
            // The failed write left the wrapper as it was.
            #expect(card.object(forKey: kSecValueData) as? String == "")

            // With an account of its own, it is another item.
            try card.setObject("card", forKey: kSecAttrAccount)
            try card.setObject("4111", forKey: kSecValueData)
            #expect(try KeychainItemWrapper(identifier: "com.example.pin").object(forKey: kSecValueData) as? String == "1234")
            #expect(try KeychainItemWrapper(identifier: "com.example.card").object(forKey: kSecValueData) as? String == "4111")
        }
    }

    /// A change of account onto another item's key fails and changes nothing,
    /// in the keychain or in the wrapper.
    @Test func failedWriteLeavesWrapperAndItemUnchanged() throws {
        try keychainFiles.run {
            let alice = try KeychainItemWrapper(identifier: "alice")
            try alice.setObject("alice", forKey: kSecAttrAccount)
            try alice.setObject("a-secret", forKey: kSecValueData)
            let bob = try KeychainItemWrapper(identifier: "bob")
            try bob.setObject("bob", forKey: kSecAttrAccount)
            try bob.setObject("b-secret", forKey: kSecValueData)

            #expect(keychainError { try bob.setObject("alice", forKey: kSecAttrAccount) }?.status == errSecDuplicateItem)
            #expect(bob.object(forKey: kSecAttrAccount) as? String == "bob")
            #expect(try KeychainItemWrapper(identifier: "bob").object(forKey: kSecAttrAccount) as? String == "bob")
        }
    }

    @Test func resetDeletesTheItemAndRestoresTheDefaults() throws {
        try keychainFiles.run {
            let wrapper = try KeychainItemWrapper(identifier: "reset-me", accessGroup: nil)
            try wrapper.setObject("me", forKey: kSecAttrAccount)
            try wrapper.setObject("Label", forKey: kSecAttrLabel)
            try wrapper.setObject(kSecAttrAccessibleAfterFirstUnlock, forKey: kSecAttrAccessible)
            try wrapper.setObject("s3cr3t", forKey: kSecValueData)

            try wrapper.resetKeychainItem()
            #expect(storedItem(generic: "reset-me") == nil)
            for key in [kSecAttrAccount, kSecAttrLabel, kSecAttrDescription, kSecValueData] {
                #expect(wrapper.object(forKey: key) as? String == "")
            }
            // As in the sample, other attributes set before stay for the next write.
            #expect(wrapper.object(forKey: kSecAttrAccessible) as? String == kSecAttrAccessibleAfterFirstUnlock as String)
            let reloaded = try KeychainItemWrapper(identifier: "reset-me")
            #expect(reloaded.object(forKey: kSecValueData) as? String == "")
            #expect(reloaded.object(forKey: kSecAttrAccount) as? String == "")

            // Resetting an item that was never written is fine; the next set adds it again.
            try reloaded.resetKeychainItem()
            try wrapper.setObject("again", forKey: kSecValueData)
            #expect(storedItem(generic: "reset-me")?[kSecValueData as String] as? Data == Data("again".utf8))
        }
    }

    /// Rules 9 and 12: the wrapper's access group is where it adds and searches; a group the
    /// process does not hold fails at once rather than reading as an empty item.
    @Test func accessGroups() throws {
        try keychainFiles.run {
            let shared = try KeychainItemWrapper(identifier: "shared-pin", accessGroup: "com.example.shared")
            try shared.setObject("1234", forKey: kSecValueData)
            #expect(try KeychainItemWrapper(identifier: "shared-pin", accessGroup: "com.example.app").object(forKey: kSecValueData) as? String == "")
            #expect(try KeychainItemWrapper(identifier: "shared-pin", accessGroup: nil).object(forKey: kSecValueData) as? String == "1234")

            #expect(keychainError { _ = try KeychainItemWrapper(identifier: "x", accessGroup: "com.other.team") }?.status == errSecMissingEntitlement)

            // The book's way: set the group as an attribute, which moves the item (an update may change the group).
            let pin = try KeychainItemWrapper(identifier: "moving-pin", accessGroup: nil)
            try pin.setObject("moving", forKey: kSecAttrAccount)
            try pin.setObject("1", forKey: kSecValueData)
            try pin.setObject("com.example.shared", forKey: kSecAttrAccessGroup)
            #expect(keychainError { try pin.setObject("com.other.team", forKey: kSecAttrAccessGroup) }?.status == errSecMissingEntitlement)
        }
        #expect(storedItem(generic: "shared-pin")?[kSecAttrAccessGroup as String] as? String == "com.example.shared")
        #expect(storedItem(generic: "moving-pin")?[kSecAttrAccessGroup as String] as? String == "com.example.shared")
    }

    /// Fixed quirk: bytes that are not UTF-8 come back as Data rather than crashing.
    @Test func secretThatIsNotTextReadsBackAsData() throws {
        try keychainFiles.run {
            let wrapper = try KeychainItemWrapper(identifier: "binary", accessGroup: nil)
            try wrapper.setObject(Data([0xFF, 0x00, 0xFE]), forKey: kSecValueData)
            #expect(wrapper.object(forKey: kSecValueData) as? Data == Data([0xFF, 0x00, 0xFE]))
            #expect(try KeychainItemWrapper(identifier: "binary").object(forKey: kSecValueData) as? Data == Data([0xFF, 0x00, 0xFE]))
            // UTF-8 data is text, as the sample hands it back.
            try wrapper.setObject(Data("text".utf8), forKey: kSecValueData)
            #expect(wrapper.object(forKey: kSecValueData) as? String == "text")
        }
    }

    @Test func onlyItemAttributesAndTheSecretCanBeSet() throws {
        try keychainFiles.run {
            let wrapper = try KeychainItemWrapper(identifier: "strict", accessGroup: nil)
            for key in [kSecClass, kSecAttrGeneric, kSecReturnData, kSecMatchLimit, kSecAttrServer, kSecAttrSynchronizable] {
                #expect(keychainError { try wrapper.setObject("x", forKey: key) }?.status == errSecParam)
            }
            #expect(keychainError { try wrapper.setObject(42, forKey: kSecValueData) }?.status == errSecParam)
            #expect(keychainError { try wrapper.setObject([1, 2], forKey: kSecAttrLabel) }?.status == errSecParam)
            // Nil does nothing, as in the sample.
            try wrapper.setObject(nil, forKey: kSecAttrLabel)
            #expect(wrapper.object(forKey: kSecAttrLabel) as? String == "")
            try wrapper.setObject(7, forKey: kSecAttrCreator)
            #expect(wrapper.object(forKey: kSecAttrCreator) as? Int == 7)
        }
        #expect(storedItem(generic: "strict")?[kSecAttrCreator as String] as? Int == 7)
    }

    @Test func dumpDoesNotShowTheSecret() throws {
        let wrapper = try keychainFiles.run {
            let wrapper = try KeychainItemWrapper(identifier: "dumped", accessGroup: nil)
            try wrapper.setObject("hunter2-very-secret", forKey: kSecValueData)
            return wrapper
        }
        var dumped = ""
        dump(wrapper, to: &dumped)
        for text in [dumped, String(reflecting: wrapper), "\(wrapper)"] {
            #expect(!text.contains("hunter2-very-secret"))
        }
        #expect(dumped.contains("dumped"))
    }
}
