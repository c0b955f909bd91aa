import Foundation
import Security
import Testing

/// The `[keychain]` argument and `--access-group`: which keychain, and which programs'
/// items.
@Suite struct KeychainAndGroupTests {
    let keychainctl = Keychainctl()

    /// A generic password that another program, in the access group `group`, adds.
    func addAsProgram(_ group: String, account: String, secret: String, keychain: String = "login") -> OSStatus {
        keychainctl.asProgram(group, keychain: keychain) {
            SecItemAdd([
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                kSecAttrService as String: "example.com", kSecValueData as String: Data(secret.utf8),
            ] as CFDictionary, nil)
        }
    }

    /// The access group of the item with this account, read as a program holding `group`.
    func accessGroup(of account: String, readingAs group: String) -> String? {
        var result: CFTypeRef?
        let status = keychainctl.asProgram(group) {
            SecItemCopyMatching([
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                kSecReturnAttributes as String: true,
            ] as CFDictionary, &result)
        }
        guard status == errSecSuccess else { return nil }
        return (result as? [String: Any])?[kSecAttrAccessGroup as String] as? String
    }

    @Test func aNamedKeychainMustExist() throws {
        let missing = try keychainctl("find-generic-password", "-a", "alice", "work")
        #expect(missing.status == 50)   // errSecNoSuchKeychain, -25294
        #expect(missing.errors == "keychainctl: SecKeychainOpen work: The specified keychain could not be found.\n")
        let adding = try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "pw", "work")
        #expect(adding.status == 50)
        #expect(!FileManager.default.fileExists(atPath: keychainctl.keychains.appendingPathComponent("work.keychain-db").path))
    }

    @Test func aKeychainIsNamedByNameFileNameOrPath() throws {
        #expect(addAsProgram("com.example.app", account: "alice", secret: "at work", keychain: "work") == errSecSuccess)
        let path = keychainctl.keychains.appendingPathComponent("work.keychain-db").path
        for name in ["work", "work.keychain", "work.keychain-db", path] {
            let found = try keychainctl("find-generic-password", "-a", "alice", "-w", name)
            #expect(found.output == "at work\n", "\(name)")
        }
        let block = try keychainctl("find-generic-password", "-a", "alice", "work")
        #expect(block.output.hasPrefix("keychain: \"\(path)\"\n"))
        // The login keychain is another keychain: it does not have the item.
        #expect(try keychainctl("find-generic-password", "-a", "alice").status == 44)
        #expect(try keychainctl("add-generic-password", "-a", "bob", "-s", "example.com", "-w", "pw", "work").status == 0)
        #expect(try keychainctl("dump-keychain", path).output.components(separatedBy: "class: \"genp\"").count == 3)
    }

    @Test func itSeesTheItemsOfEveryProgram() throws {
        #expect(addAsProgram("com.example.app", account: "alice", secret: "app") == errSecSuccess)
        #expect(addAsProgram("com.example.other", account: "bob", secret: "other") == errSecSuccess)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == "app\n")
        #expect(try keychainctl("find-generic-password", "-a", "bob", "-w").output == "other\n")
        #expect(try keychainctl("add-generic-password", "-U", "-a", "alice", "-s", "example.com", "-w", "changed")
            .status == 0)
        // The program's own item was changed, in its own group.
        #expect(accessGroup(of: "alice", readingAs: "com.example.app") == "com.example.app")
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == "changed\n")
        #expect(try keychainctl("delete-generic-password", "-a", "bob").status == 0)
        #expect(accessGroup(of: "bob", readingAs: "com.example.other") == nil)
    }

    @Test func minusMinusAccessGroupNarrowsSearchesAndPlacesNewItems() throws {
        #expect(addAsProgram("com.example.app", account: "alice", secret: "app") == errSecSuccess)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "--access-group", "com.example.other").status
            == 44)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "--access-group", "com.example.app", "-w")
            .output == "app\n")

        try keychainctl("add-generic-password", "-a", "carol", "-s", "example.com", "-w", "pw")
        #expect(accessGroup(of: "carol", readingAs: "keychainctl") == "keychainctl")
        try keychainctl("add-generic-password", "-a", "dave", "-s", "example.com", "-w", "pw",
                        "--access-group", "com.example.app")
        #expect(accessGroup(of: "dave", readingAs: "com.example.app") == "com.example.app")
        #expect(accessGroup(of: "dave", readingAs: "keychainctl") == nil)
        let dump = try keychainctl("dump-keychain", "--access-group", "com.example.app")
        #expect(dump.output.contains("\"acct\"<blob>=\"alice\"") && dump.output.contains("\"acct\"<blob>=\"dave\""))
        #expect(!dump.output.contains("\"acct\"<blob>=\"carol\""))
    }
}
