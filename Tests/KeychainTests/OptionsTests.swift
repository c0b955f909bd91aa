import Foundation
import Keychain
import Security
import Testing
import TestSupport

@Suite struct OptionsTests {
    let keychainFiles = PrivateKeychain()
    let keychain = Keychain(service: "com.example.options")

    @Test func modifiersReturnCopiesAndLeaveTheOriginal() {
        let changed = keychain.accessibility(.always).synchronizable(true).label("l").comment("c")
            .attributes([kSecAttrDescription as String: .string("d")])
        #expect(keychain.options == KeychainOptions())
        #expect(changed.options == KeychainOptions(
            accessibility: .always, synchronizable: true, label: "l", comment: "c",
            attributes: [kSecAttrDescription as String: .string("d")]))
        #expect(changed.service == "com.example.options")
    }

    /// Options are plain values: a property changed in place is what the next save writes.
    @Test func optionsChangedInPlaceAreWritten() throws {
        var labelled = keychain
        labelled.options.label = "API token"
        labelled.options.accessibility = .afterFirstUnlock
        #expect(labelled.options == KeychainOptions(accessibility: .afterFirstUnlock, label: "API token"))
        #expect(keychain.options == KeychainOptions())
        try keychainFiles.run {
            try labelled.set("v", forKey: "k")
            let stored = try #require(keychainFiles.attributes(genericPassword(account: "k", service: "com.example.options")).attributes)
            #expect(stored[kSecAttrLabel as String] as? String == "API token")
            #expect(stored[kSecAttrAccessible as String] as? String == "ck")
        }
    }

    /// Rules 8 and 34: accessibility is written with every save, moving an existing item.
    @Test func accessibilityIsWrittenAndChangedBySaving() throws {
        try keychainFiles.run {
            let query = genericPassword(account: "k", service: "com.example.options")
            try keychain.set("v", forKey: "k")
            #expect(keychainFiles.attributes(query).attributes?[kSecAttrAccessible as String] as? String == "ak")
            try keychain.accessibility(.afterFirstUnlockThisDeviceOnly).set("v2", forKey: "k")
            #expect(keychainFiles.attributes(query).attributes?[kSecAttrAccessible as String] as? String == "cku")
            #expect(try keychain.string(forKey: "k") == "v2")
        }
    }

    @Test func labelAndCommentAreKeptWhenASaveDoesNotSetThem() throws {
        try keychainFiles.run {
            try keychain.label("Label").comment("Comment").set("v", forKey: "k")
            try keychain.set("v2", forKey: "k")
            let item = try #require(try keychain.allItems().first)
            #expect(item.label == "Label")
            #expect(item.comment == "Comment")
        }
    }

    @Test func extraAttributesAreWritten() throws {
        try keychainFiles.run {
            try keychain.attributes([
                kSecAttrDescription as String: .string("deploy key"),
                kSecAttrGeneric as String: .data(Data([9])),
                kSecAttrCreator as String: .integer(0x41424344),
                kSecAttrIsInvisible as String: .bool(true),
            ]).set("v", forKey: "k")
            let stored = try #require(keychainFiles.attributes(genericPassword(account: "k", service: "com.example.options")).attributes)
            #expect(stored[kSecAttrDescription as String] as? String == "deploy key")
            #expect(stored[kSecAttrGeneric as String] as? Data == Data([9]))
            #expect((stored[kSecAttrCreator as String] as? NSNumber)?.intValue == 0x41424344)
            #expect((stored[kSecAttrIsInvisible as String] as? NSNumber)?.boolValue == true)
        }
    }

    @Test(arguments: ["acct", "svce", "agrp", "sync", "pdmn", "labl", "class", "v_Data", "r_Data", "description"])
    func extraAttributesCannotOverrideManagedOnesOrBeOtherKeys(name: String) throws {
        try keychainFiles.run { () throws in
            let error = keychainError { try keychain.attributes([name: .string("x")]).set("v", forKey: "k") }
            #expect(error?.status == errSecParam)
            #expect(try keychain.contains("k") == false)
        }
    }

    /// An attribute of another class is the SecItem call's errSecNoSuchAttr, thrown.
    @Test func extraAttributeOfAnotherClassIsRejectedBySecItem() throws {
        try keychainFiles.run { () throws in
            let error = keychainError { try keychain.attributes([kSecAttrApplicationTag as String: .string("t")]).set("v", forKey: "k") }
            #expect(error?.status == errSecNoSuchAttr)
        }
    }

    /// Synchronizable and other items of the same key are different items; reads
    /// see only the configured kind; remove removes both.
    @Test func synchronizableItemsAreSeparate() throws {
        try keychainFiles.run {
            let synced = keychain.synchronizable(true)
            try synced.set("cloud", forKey: "k")
            #expect(try keychain.contains("k") == false)
            try keychain.set("local", forKey: "k")
            #expect(try synced.string(forKey: "k") == "cloud")
            #expect(try keychain.string(forKey: "k") == "local")
            #expect(try synced.allItems().map(\.synchronizable) == [true])
            #expect(try keychain.remove("k"))
            #expect(try synced.contains("k") == false)
        }
    }

    /// Rules 9 and 12: an explicit group is where items go and what is searched; a group the
    /// process does not hold is errSecMissingEntitlement.
    @Test func accessGroups() throws {
        try keychainFiles.run {
            let shared = Keychain(service: "com.example.options", accessGroup: "com.example.shared")
            try shared.set("v", forKey: "k")
            #expect(try shared.allItems().first?.accessGroup == "com.example.shared")
            #expect(try Keychain(service: "com.example.options", accessGroup: "com.example.app").contains("k") == false)
            #expect(try keychain.contains("k"))  // No group searches all of the caller's groups.

            let foreign = Keychain(service: "com.example.options", accessGroup: "com.other.group")
            let error = keychainError { try foreign.set("v", forKey: "k") }
            #expect(error?.status == errSecMissingEntitlement)
            #expect(error?.message == "A required entitlement isn't present.")
        }
        let outsider = keychainFiles.asCaller(["com.other.group"])
        try outsider.run { () throws in #expect(try keychain.contains("k") == false) }
    }
}
