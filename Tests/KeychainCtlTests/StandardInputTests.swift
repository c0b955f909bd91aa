import Foundation
import Testing
import TestSupport

/// What keychainctl reads besides its options: arguments as the kernel passed them, and a
/// password from standard input. Bad input is a clear error with a documented status, and
/// nothing is stored.
@Suite struct StandardInputTests {
    let keychainctl = Keychainctl()

    // MARK: - Arguments that are not UTF-8

    @Test func anAccountThatIsNotUTF8IsAUsageErrorNotAnotherAccount() throws {
        // Repaired to U+FFFD, "al\xFF" and "al\xFE" would be one account, and a find of one
        // would return the other's secret.
        try keychainctl("add-generic-password", "-a", "al\u{FFFD}", "-s", "example.com", "-w", "someone else's")
        let refused = try keychainctl.shell(#"exec "$0" find-generic-password -a "$(printf 'al\376')" -s example.com -w"#)
        #expect(refused.status == 2)
        #expect(refused.output.isEmpty)
        #expect(refused.errors == #"keychainctl: argument 3 ("al\xFE") is not valid UTF-8; keychainctl reads UTF-8 arguments only"# + "\n")

        let added = try keychainctl.shell(#"exec "$0" add-generic-password -a "$(printf 'al\377')" -s example.com -w mine"#)
        #expect(added.status == 2)
        #expect(try keychainctl("find-generic-password", "-s", "example.com", "-w").output == "someone else's\n")
    }

    @Test func aPasswordThatIsNotUTF8IsNamedButNeverShown() throws {
        for (script, position) in [
            (#"exec "$0" add-generic-password -a alice -s example.com -w "$(printf 's3cr\377t')""#, 7),
            (#"exec "$0" add-internet-password -a alice -s example.com "-w$(printf 's3cr\377t')""#, 6),
            (#"exec "$0" create-keychain -p "$(printf 's3cr\377t')" work"#, 3),
        ] {
            let refused = try keychainctl.shell(script)
            #expect(refused.status == 2)
            #expect(refused.errors == "keychainctl: argument \(position) (the password argument) is not valid UTF-8; "
                    + "keychainctl reads UTF-8 arguments only\n")
            #expect(!refused.errors.contains("s3cr"))
        }
        #expect(try keychainctl("find-generic-password", "-a", "alice").status == 44)
        #expect(try keychainctl("find-internet-password", "-a", "alice").status == 44)
    }

    // MARK: - --password-stdin

    @Test func aPasswordOf64KiBIsStoredAndOneByteMoreIsRefused() throws {
        let longest = String(repeating: "p", count: 64 * 1024)
        let stored = try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "--password-stdin",
                                     input: longest + "\n")
        #expect(stored.status == 0)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == longest + "\n")

        let refused = try keychainctl("add-generic-password", "-a", "bob", "-s", "example.com", "--password-stdin",
                                      input: longest + "p")
        #expect(refused.status == 206)   // errSecParam, -50
        #expect(refused.errors == "keychainctl: --password-stdin: the password is longer than 64 KiB (65536 bytes); nothing was changed\n")
        #expect(try keychainctl("find-generic-password", "-a", "bob").status == 44)
    }

    @Test func anEndlessStandardInputIsRefusedAfter64KiB() throws {
        // Read to its end, /dev/zero would fill memory until the process dies.
        let refused = try keychainctl.shell(
            #"exec "$0" add-generic-password -a alice -s example.com --password-stdin < /dev/zero"#)
        #expect(refused.status == 206)
        #expect(refused.errors.contains("longer than 64 KiB"))
        #expect(try keychainctl("find-generic-password", "-a", "alice").status == 44)
    }

    @Test func aClosedStandardInputIsAClearError() throws {
        for command in ["add-generic-password -a alice -s example.com", "create-keychain work"] {
            let refused = try keychainctl.shell(#"exec "$0" "# + command + " --password-stdin <&-")
            #expect(refused.status == 1, "\(command)")
            #expect(refused.errors == "keychainctl: --password-stdin: standard input is closed; "
                    + "pipe the password in or redirect it from a file\n", "\(command)")
        }
        #expect(try keychainctl("find-generic-password", "-a", "alice").status == 44)
        #expect(!FileManager.default.fileExists(atPath: keychainctl.path(of: "work")))
    }

    @Test func aDirectoryAsStandardInputIsAClearError() throws {
        let refused = try keychainctl.shell(#"exec "$0" add-generic-password -a alice -s example.com --password-stdin < /tmp"#)
        #expect(refused.status == 1)
        #expect(refused.errors == "keychainctl: --password-stdin: cannot read standard input: standard input is a directory\n")
        #expect(try keychainctl("find-generic-password", "-a", "alice").status == 44)
    }

    // MARK: - Empty passwords

    @Test func anEmptyPasswordFromStandardInputNeedsAllowEmpty() throws {
        // `printf %s "$TOKEN" | keychainctl ...` with TOKEN unset.
        for noun in ["generic", "internet"] {
            let refused = try keychainctl("add-\(noun)-password", "-a", "alice", "-s", "example.com", "--password-stdin")
            #expect(refused.status == 206)
            #expect(refused.errors == "keychainctl: --password-stdin: standard input is empty, so the password would be "
                    + "empty; nothing was stored. Add --allow-empty to store an empty password.\n")
            #expect(try keychainctl("find-\(noun)-password", "-a", "alice").status == 44)

            let allowed = try keychainctl("add-\(noun)-password", "-a", "alice", "-s", "example.com", "--password-stdin",
                                          "--allow-empty", input: "\n")
            #expect(allowed.status == 0)
            #expect(try keychainctl("find-\(noun)-password", "-a", "alice", "-w").output == "\n")
        }
    }

    @Test func anEmptyPasswordFromStandardInputDoesNotBlankAnItemOnUpdate() throws {
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-w", "kept")
        let refused = try keychainctl("add-generic-password", "-U", "-a", "alice", "-s", "example.com", "--password-stdin")
        #expect(refused.status == 206)
        #expect(try keychainctl("find-generic-password", "-a", "alice", "-w").output == "kept\n")
    }

    @Test func theHelpDocumentsAllowEmptyAndTheLimit() throws {
        let help = try keychainctl("add-generic-password", "--help").output
        #expect(help.contains("--allow-empty"))
        #expect(help.contains("64 KiB"))
    }
}
