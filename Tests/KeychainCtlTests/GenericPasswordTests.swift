import Foundation
import Testing

/// add-, find- and delete-generic-password, as scripts written for macOS `security` use them.
@Suite struct GenericPasswordTests {
    let keychainctl = Keychainctl()

    @Test func anAddedPasswordIsFoundWithMinusW() throws {
        let added = try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "s3cr3t")
        #expect(added.status == 0)
        #expect(added.output.isEmpty && added.errors.isEmpty)

        let found = try keychainctl("find-generic-password", "-a", "alice", "-s", "example.com", "-w")
        #expect(found.status == 0)
        #expect(found.output == "s3cr3t\n")
        #expect(found.errors.isEmpty)
    }

    @Test func findPrintsTheAttributeBlockAsSecurityDoes() throws {
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "s3cr3t", "-j", "a note",
                        "-D", "application password", "-G", "gen", "-c", "aapl", "-C", "note")
        let found = try keychainctl("find-generic-password", "-s", "example.com")
        #expect(found.status == 0)
        #expect(found.errors.isEmpty)
        #expect(found.output.withDatesChecked == [
            "keychain: \"\(keychainctl.loginPath)\"",
            "version: 512",
            "class: \"genp\"",
            "attributes:",
            "    0x00000007 <blob>=\"example.com\"",
            "    0x00000008 <blob>=<NULL>",
            "    \"acct\"<blob>=\"alice\"",
            "    \"cdat\"<timedate>=<date>",
            "    \"crtr\"<uint32>=\"aapl\"",
            "    \"cusi\"<sint32>=<NULL>",
            "    \"desc\"<blob>=\"application password\"",
            "    \"gena\"<blob>=\"gen\"",
            "    \"icmt\"<blob>=\"a note\"",
            "    \"invi\"<sint32>=<NULL>",
            "    \"mdat\"<timedate>=<date>",
            "    \"nega\"<sint32>=<NULL>",
            "    \"prot\"<blob>=<NULL>",
            "    \"scrp\"<sint32>=<NULL>",
            "    \"svce\"<blob>=\"example.com\"",
            "    \"type\"<uint32>=\"note\"",
            "",
        ])
        #expect(!found.output.contains("s3cr3t"))
    }

    @Test func minusGAlsoPrintsThePasswordOnStandardError() throws {
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "s3cr3t", "-l", "My label")
        let found = try keychainctl("find-generic-password", "-a", "alice", "-g")
        #expect(found.status == 0)
        #expect(found.output.contains("    0x00000007 <blob>=\"My label\"\n"))
        #expect(!found.output.contains("s3cr3t"))
        #expect(found.errors == "password: \"s3cr3t\"\n")
    }

    @Test func aBinaryPasswordPrintsAsHex() throws {
        #expect(try keychainctl("add-generic-password", "-a", "bin", "-s", "example.com", "-X", "00FF41").status == 0)
        #expect(try keychainctl("find-generic-password", "-a", "bin", "-w").output == "00ff41\n")
        // Non-ASCII text is not printable either, as in security.
        try keychainctl("add-generic-password", "-a", "utf8", "-s", "example.com", "-w", "pé")
        #expect(try keychainctl("find-generic-password", "-a", "utf8", "-w").output == "70c3a9\n")
        let shown = try keychainctl("find-generic-password", "-a", "bin", "-g")
        #expect(shown.errors == "password: 0x00FF41  \"\\000\\377A\"\n")
    }

    @Test func minusUUpdatesTheItemElseAdds() throws {
        #expect(try keychainctl("add-generic-password", "-U", "-a", "alice", "-s", "example.com", "-w", "one").status == 0)
        #expect(try keychainctl("add-generic-password", "-U", "-a", "alice", "-s", "example.com", "-w", "two",
                                "-l", "Renamed").status == 0)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == "two\n")
        #expect(try keychainctl("find-generic-password", "-a", "alice").output.contains("0x00000007 <blob>=\"Renamed\""))
        // Without a password, -U keeps the one the item has.
        #expect(try keychainctl("add-generic-password", "-U", "-a", "alice", "-s", "example.com", "-j", "c").status == 0)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == "two\n")
        // -U changes what is given, no more: the label stays, rather than going back to the default.
        #expect(try keychainctl("find-generic-password", "-a", "alice").output.contains("0x00000007 <blob>=\"Renamed\""))
        #expect(try keychainctl("dump-keychain").output.components(separatedBy: "class: ").count == 2)
    }

    @Test func aSecondAddIsADuplicateAndExits45() throws {
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "one")
        let again = try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "two")
        #expect(again.status == 45)
        #expect(again.errors == "keychainctl: SecItemAdd: The specified item already exists in the keychain.\n")
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == "one\n")
    }

    @Test func noMatchExits44() throws {
        let missing = try keychainctl("find-generic-password", "-s", "nowhere.example.com")
        #expect(missing.status == 44)
        #expect(missing.output.isEmpty)
        #expect(missing.errors
            == "keychainctl: SecItemCopyMatching: The specified item could not be found in the keychain.\n")
        #expect(try keychainctl("find-generic-password", "-s", "nowhere.example.com", "-w").status == 44)
    }

    @Test func theWholeKeyFindsTheItemWhateverTheOtherAttributes() throws {
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "pw", "-l", "one")
        // As security's find_first_generic_password: -a and -s alone are compared.
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-s", "example.com", "-l", "other", "-w")
            .output == "pw\n")
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-l", "other").status == 44)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-l", "one", "-w").output == "pw\n")
    }

    @Test func thePasswordCanComeFromStandardInput() throws {
        let added = try keychainctl("add-generic-password", "-a", "ci", "-s", "example.com", "--password-stdin",
                                    input: "from a pipe\n")
        #expect(added.status == 0)
        #expect(try keychainctl("find-generic-password", "-a", "ci", "-w").output == "from a pipe\n")
        let trailing = try keychainctl("add-generic-password", "-a", "ci2", "-s", "example.com", "--password-stdin",
                                       input: "two newlines\n\n")
        #expect(trailing.status == 0)
        #expect(try keychainctl("find-generic-password", "-a", "ci2", "-w").output == "74776f206e65776c696e65730a\n")
    }

    @Test func withoutATerminalMinusWReadsTheAnswersFromStandardInput() throws {
        let added = try keychainctl("add-generic-password", "-a", "piped", "-s", "example.com", "-w",
                                    input: "typed\ntyped\n")
        #expect(added.status == 0)
        #expect(added.errors == "password data for new item: \nretype password for new item: \n")
        #expect(try keychainctl("find-generic-password", "-a", "piped", "-w").output == "typed\n")
    }

    @Test func minusTIsAcceptedAndIgnored() throws {
        let added = try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "pw",
                                    "-T", "/usr/bin/git", "-T", "", "-A")
        #expect(added.status == 0)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == "pw\n")
    }

    @Test func deletePrintsTheItemThenDeletesIt() throws {
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "s3cr3t")
        let deleted = try keychainctl("delete-generic-password", "-a", "alice", "-s", "example.com")
        #expect(deleted.status == 0)
        #expect(deleted.output.hasPrefix("keychain: \"\(keychainctl.loginPath)\"\nversion: 512\nclass: \"genp\"\n"))
        #expect(deleted.output.contains("    \"acct\"<blob>=\"alice\"\n"))
        #expect(!deleted.output.contains("s3cr3t"))
        #expect(deleted.errors == "password has been deleted.\n")
        #expect(try keychainctl("find-generic-password", "-a", "alice").status == 44)
        #expect(try keychainctl("delete-generic-password", "-a", "alice").status == 44)
    }

    @Test func deleteRemovesOnlyTheFirstMatch() throws {
        try keychainctl("add-generic-password", "-a", "one", "-s", "shared.example.com", "-w", "1")
        try keychainctl("add-generic-password", "-a", "two", "-s", "shared.example.com", "-w", "2")
        #expect(try keychainctl("delete-generic-password", "-s", "shared.example.com").output.contains("\"one\""))
        #expect(try keychainctl("find-generic-password", "-s", "shared.example.com", "-w").output == "2\n")
    }
}
