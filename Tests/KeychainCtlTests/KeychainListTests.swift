import Foundation
import Testing

/// create-, delete-, list-, default- and login-keychain: which keychains there are, and
/// which one the item subcommands use. Keychains without passwords, so no scrypt runs.
@Suite struct KeychainListTests {
    let keychainctl = Keychainctl()

    @Test func aFreshUserHasTheLoginKeychainAsDefault() throws {
        for subcommand in ["list-keychains", "default-keychain", "login-keychain"] {
            let shown = try keychainctl(subcommand)
            #expect(shown.status == 0, "\(subcommand)")
            #expect(shown.output == keychainctl.line("login"), "\(subcommand)")
            #expect(shown.errors.isEmpty, "\(subcommand)")
        }
        #expect(try keychainctl("list-keychains", "-d", "user").output == keychainctl.line("login"))
        // Linux has no system keychains.
        #expect(try keychainctl("list-keychains", "-d", "system").output.isEmpty)
        // Showing them created nothing.
        #expect(!FileManager.default.fileExists(atPath: keychainctl.loginPath))
    }

    @Test func createdKeychainsAreListedAfterTheDefault() throws {
        let created = try keychainctl("create-keychain", "-p", "", "work", "alpha.keychain")
        #expect(created.status == 0)
        #expect(created.output.isEmpty && created.errors.isEmpty)
        #expect(try keychainctl("list-keychains").output
            == keychainctl.line("login") + keychainctl.line("alpha") + keychainctl.line("work"))

        let again = try keychainctl("create-keychain", "-p", "", "work")
        #expect(again.status == 48)   // errSecDuplicateKeychain, -25296
        #expect(again.errors == "keychainctl: SecKeychainCreate work: A keychain with the same name already exists.\n")
    }

    @Test func theDefaultKeychainIsWhereItemsGoWithoutAName() throws {
        try keychainctl("create-keychain", "-p", "", "work")
        let set = try keychainctl("default-keychain", "-s", "work")
        #expect(set.status == 0 && set.output.isEmpty && set.errors.isEmpty)
        #expect(try keychainctl("default-keychain").output == keychainctl.line("work"))
        #expect(try keychainctl("login-keychain").output == keychainctl.line("login"))
        // login was never used: the list is the default, work, alone.
        #expect(try keychainctl("list-keychains").output == keychainctl.line("work"))

        #expect(try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "at work").status == 0)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w", "work").output == "at work\n")
        let block = try keychainctl("find-generic-password", "-a", "alice")
        #expect(block.output.hasPrefix("keychain: \"\(keychainctl.path(of: "work"))\"\n"))

        // -s alone makes login the default again.
        #expect(try keychainctl("default-keychain", "-s").status == 0)
        #expect(try keychainctl("default-keychain").output == keychainctl.line("login"))
        #expect(try keychainctl("find-generic-password", "-a", "alice").status == 44)

        let missing = try keychainctl("default-keychain", "-s", "nowhere")
        #expect(missing.status == 50)
        #expect(missing.errors == "keychainctl: SecKeychainOpen nowhere: The specified keychain could not be found.\n")
        #expect(try keychainctl("default-keychain").output == keychainctl.line("login"))
    }

    @Test func deletedKeychainsAndTheirItemsAreGone() throws {
        try keychainctl("create-keychain", "-p", "", "work", "alpha")
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "pw", "work")
        let deleted = try keychainctl("delete-keychain", "work", "alpha")
        #expect(deleted.status == 0)
        #expect(deleted.output.isEmpty && deleted.errors.isEmpty)
        #expect(try keychainctl("list-keychains").output == keychainctl.line("login"))
        #expect(try keychainctl("find-generic-password", "-a", "alice", "work").status == 50)

        let missing = try keychainctl("delete-keychain", "work")
        #expect(missing.status == 50)   // errSecNoSuchKeychain, -25294
        #expect(missing.errors == "keychainctl: SecKeychainDelete work: The specified keychain could not be found.\n")
        // A keychain created again is empty.
        try keychainctl("create-keychain", "-p", "", "work")
        #expect(try keychainctl("find-generic-password", "-a", "alice", "work").status == 44)
    }
}
