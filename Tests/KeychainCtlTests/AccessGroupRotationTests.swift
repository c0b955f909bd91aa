import Foundation
import Security
import Testing
import TestSupport

/// An administrator rotating an app's secret: `add-*-password -U` and `delete-*-password`
/// act on the app's item, whatever its access group, when it is the only one the attributes
/// find, and refuse, naming the groups, when items of several groups match; keychainctl's
/// own group does not depend on the name its executable was copied under.
@Suite struct AccessGroupRotationTests {
    let keychainctl = Keychainctl()

    /// A generic password for alice at example.com that a program in `group` adds.
    func addAsProgram(_ group: String, secret: String) -> OSStatus {
        keychainctl.asProgram(group) {
            SecItemAdd([
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "alice",
                kSecAttrService as String: "example.com", kSecValueData as String: Data(secret.utf8),
            ] as CFDictionary, nil)
        }
    }

    /// alice's secret at example.com as the program holding only `group` reads it; nil when
    /// it sees no item.
    func secret(readingAs group: String) -> String? {
        var result: CFTypeRef?
        let status = keychainctl.asProgram(group) {
            SecItemCopyMatching([
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "alice",
                kSecAttrService as String: "example.com", kSecReturnData as String: true,
            ] as CFDictionary, &result)
        }
        guard status == errSecSuccess, let data = result as? Data else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    @Test("-U rotates the app's own item, the only one, and adds no copy in keychainctl's group")
    func minusURotatesTheOnlyItemInTheAppsGroup() throws {
        #expect(addAsProgram("com.example.app", secret: "old") == errSecSuccess)
        let rotated = try keychainctl("add-generic-password", "-U", "-a", "alice", "-s", "example.com", "-w", "new")
        #expect(rotated.status == 0 && rotated.errors.isEmpty)
        #expect(secret(readingAs: "com.example.app") == "new")
        #expect(secret(readingAs: "keychainctl") == nil)
    }

    @Test("-U and delete refuse, naming the groups, when items of several access groups match")
    func severalGroupsAreRefusedAndNothingChanges() throws {
        #expect(addAsProgram("com.example.app", secret: "app's") == errSecSuccess)
        // The trap: an earlier add without --access-group left a copy in keychainctl's group.
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "stray copy")
        #expect(secret(readingAs: "keychainctl") == "stray copy")

        let expected = "items of 2 access groups match (com.example.app, keychainctl); "
            + "name the one to change with --access-group <group>\n"
        let update = try keychainctl("add-generic-password", "-U", "-a", "alice", "-s", "example.com", "-w", "new")
        #expect(update.status == 3)
        #expect(update.errors == "keychainctl: add-generic-password: " + expected)
        let delete = try keychainctl("delete-generic-password", "-a", "alice", "-s", "example.com")
        #expect(delete.status == 3)
        #expect(delete.errors == "keychainctl: delete-generic-password: " + expected)
        #expect(delete.output.isEmpty)
        // Nothing was half-applied.
        #expect(secret(readingAs: "com.example.app") == "app's")
        #expect(secret(readingAs: "keychainctl") == "stray copy")

        // --access-group names the one to act on, and only it changes.
        let chosen = try keychainctl("add-generic-password", "-U", "-a", "alice", "-s", "example.com", "-w", "new",
                                     "--access-group", "com.example.app")
        #expect(chosen.status == 0)
        #expect(secret(readingAs: "com.example.app") == "new")
        #expect(secret(readingAs: "keychainctl") == "stray copy")
        let deleted = try keychainctl("delete-generic-password", "-a", "alice", "-s", "example.com",
                                      "--access-group", "keychainctl")
        #expect(deleted.status == 0)
        #expect(secret(readingAs: "keychainctl") == nil)
        #expect(secret(readingAs: "com.example.app") == "new")
        // One group left: delete without --access-group takes the app's item.
        #expect(try keychainctl("delete-generic-password", "-a", "alice", "-s", "example.com").status == 0)
        #expect(secret(readingAs: "com.example.app") == nil)
    }

    @Test("For internet passwords too: -U finds the app's item by account and server, whatever its label")
    func internetPasswordsFollowTheSameRule() throws {
        // As a browser stores it: no label, no authentication type, no port.
        let added = keychainctl.asProgram("com.example.browser") {
            SecItemAdd([
                kSecClass as String: kSecClassInternetPassword, kSecAttrAccount as String: "alice",
                kSecAttrServer as String: "example.com", kSecValueData as String: Data("browser".utf8),
            ] as CFDictionary, nil)
        }
        #expect(added == errSecSuccess)
        let rotated = try keychainctl("add-internet-password", "-U", "-a", "alice", "-s", "example.com", "-w", "new")
        #expect(rotated.status == 0)
        let found = try keychainctl("find-internet-password", "-a", "alice", "-s", "example.com", "--json")
        #expect(found.output.contains("\"agrp\" : \"com.example.browser\""))
        #expect(try keychainctl("search", "server=example.com").output.components(separatedBy: "class: ").count == 2)
        #expect(try keychainctl("find-internet-password", "-a", "alice", "-w").output == "new\n")
        // Only the password changed: no label or authentication type of keychainctl's was imposed.
        #expect(!found.output.contains("\"labl\""))
        #expect(!found.output.contains("\"atyp\" : \"dflt\""))

        // A copy in keychainctl's group makes two: -U refuses and names both.
        try keychainctl("add-internet-password", "-a", "alice", "-s", "example.com", "-w", "copy")
        let update = try keychainctl("add-internet-password", "-U", "-a", "alice", "-s", "example.com", "-w", "newer")
        #expect(update.status == 3)
        #expect(update.errors.contains("(com.example.browser, keychainctl)"))
    }

    @Test("A copy of keychainctl under another name keeps the group keychainctl, and finds its items")
    func aRenamedCopyKeepsKeychainctlsGroup() throws {
        let folder = TestScratch.folder("renamed-keychainctl")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("kc").path
        let outcome = try keychainctl.shell("""
            cp "$0" '\(copy)' && '\(copy)' add-generic-password -a alice -s example.com -w 'from the copy' \
            && '\(copy)' find-generic-password -a alice -s example.com --access-group keychainctl -w
            """)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output == "from the copy\n")
        #expect(secret(readingAs: "keychainctl") == "from the copy")
        #expect(secret(readingAs: "kc") == nil)
    }

    @Test("--access-group is in the first lines of the add, find and delete help")
    func theHelpSaysWhichGroupFirst() throws {
        for subcommand in ["add-generic-password", "add-internet-password", "delete-generic-password",
                           "find-generic-password", "search"] {
            let help = try keychainctl(subcommand, "--help").output
            let firstLines = help.split(separator: "\n").prefix(3).joined(separator: "\n")
            #expect(firstLines.contains("--access-group"), "\(subcommand): \(firstLines)")
        }
        #expect(try keychainctl("add-generic-password", "--help").output.contains("keychainctl's own access group"))
    }
}
