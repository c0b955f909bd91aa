import Foundation
import Security
import Testing
import TestSupport

/// Usage errors, `error`, help and completions: what a script sees besides the items.
@Suite struct ExitStatusTests {
    let keychainctl = Keychainctl()

    @Test func aUsageErrorExits2WithUsage() throws {
        for arguments in [
            ["add-generic-password", "-a", "alice"],
            ["add-internet-password", "-s", "example.com"],
            ["delete-generic-password"],
            ["find-internet-password", "-P", "not-a-port"],
            ["add-generic-password", "-a", "alice", "-s", "example.com", "-X", "0g"],
            ["add-generic-password", "-a", "alice", "-s", "example.com", "-w", "pw", "--password-stdin"],
            ["find-generic-password", "--no-such-flag"],
            ["no-such-subcommand"],
            ["create-keychain"],
            ["create-keychain", "-P", "-p", "pw", "work"],
            ["delete-keychain"],
            ["delete-keychain", ""],
            ["list-keychains", "-d", "elsewhere"],
            ["default-keychain", "work"],
            ["unlock-keychain", "-u", "-p", "pw"],
            ["unlock-keychain", "-p", "pw", "--password-stdin"],
            ["lock-keychain", "-a", "work"],
            ["set-keychain-settings", "-t", "soon"],
            ["show-keychain-info", "work", "home"],
            ["export-archive"],
            ["import-archive", "--on-duplicate", "sometimes", "file"],
        ] {
            let outcome = try keychainctl.program.run(arguments, dataHome: keychainctl.dataHome)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.errors.contains("Usage: keychainctl"), "\(arguments)")
            #expect(outcome.output.isEmpty, "\(arguments)")
        }
        let hex = try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-X", "0g")
        #expect(hex.errors.contains("Unable to convert password data (-X must specify valid hex digits)"))
    }

    @Test func errorPrintsTheMessageOfEachCode() throws {
        let outcome = try keychainctl("error", "-25300", "0xFFFF9D2D", "-25293", "0", "12345")
        #expect(outcome.status == 0)
        #expect(outcome.output == """
            Error: 0xFFFF9D2C -25300 The specified item could not be found in the keychain.
            Error: 0xFFFF9D2D -25299 The specified item already exists in the keychain.
            Error: 0xFFFF9D33 -25293 The user name or passphrase you entered is not correct.
            Error: 0x00000000 0 No error.
            keychainctl exit status 0: success
            Error: 0x00003039 12345 OSStatus 12345

            """)
        #expect(try keychainctl("error").status == 2)
        #expect(try keychainctl("error", "twelve").status == 2)
        #expect(try keychainctl("error", "--help").output.contains("USAGE: keychainctl error <code> ..."))
    }

    /// `security error` knows every code of SecBase.h, the certificate and trust codes too.
    @Test func errorKnowsCertificateAndTrustCodes() throws {
        let outcome = try keychainctl("error", "-67843", "0xFFFEF716", "-909")
        #expect(outcome.status == 0)
        #expect(outcome.output == """
            Error: 0xFFFEF6FD -67843 The certificate was not trusted.
            Error: 0xFFFEF716 -67818 An expired certificate was detected.
            Error: 0xFFFFFC73 -909 Bad parameter or invalid state for operation.

            """)
    }

    /// keychainctl's exit statuses are explained by `error`, from the same table the exits
    /// use: the status a failure really exits with is explained as that failure.
    @Test func errorExplainsTheExitStatusesKeychainctlExitsWith() throws {
        let notFound = try keychainctl("find-generic-password", "-a", "nobody")
        let usage = try keychainctl("find-generic-password", "--no-such-flag")
        let locked: Int32 = 36, damaged: Int32 = 93
        let outcome = try keychainctl("error", "\(notFound.status)", "\(usage.status)", "\(locked)", "\(damaged)", "130")
        #expect(outcome.status == 0)
        #expect(outcome.output == """
            Error: 0x0000002C 44 OSStatus 44
            keychainctl exit status 44: no item matches (errSecItemNotFound, -25300: The specified item could not be found in the keychain.)
            Error: 0x00000002 2 OSStatus 2
            keychainctl exit status 2: a usage error: an unknown option, a bad argument, one not UTF-8
            Error: 0x00000024 36 OSStatus 36
            keychainctl exit status 36: the keychain is locked (unlock-keychain) (errSecInteractionNotAllowed, -25308: User interaction is not allowed.)
            Error: 0x0000005D 93 OSStatus 93
            keychainctl exit status 93: items that failed to open were skipped, or not an archive (errSecDecode, -26275: Unable to decode the provided data.)
            Error: 0x00000082 130 OSStatus 130
            keychainctl exit status 130: a password prompt was ended by signal 2

            """)
        // Each documented Keychain Services exit is that status's low byte, as security's.
        for (status, code) in [(errSecItemNotFound, 44), (errSecInteractionNotAllowed, 36), (errSecDecode, 93)] {
            #expect(Int32(UInt8(truncatingIfNeeded: status)) == code)
        }
        // The help's list of exit statuses comes from the same table, a line each.
        let help = try keychainctl("--help").output
        #expect(help.contains("\n    3  items of several access groups match: choose with --access-group\n"))
        #expect(help.contains("\n   44  errSecItemNotFound: no item matches\n"))
        #expect(help.contains("\n   36  errSecInteractionNotAllowed: the keychain is locked (unlock-keychain)\n"))
    }

    /// Every failure's exit status is explained by `error`: a keychain refused for its folder
    /// exits with errSecNotAvailable's low byte, and a status outside the table is named by
    /// the Keychain Services statuses that end in that byte.
    @Test func errorExplainsEveryExitStatusAFailureCanHave() throws {
        let shared = TestScratch.folder("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        #expect(chmod(shared.path, 0o777) == 0)
        let refused = try keychainctl("create-keychain", "-p", "pw", shared.appendingPathComponent("ci.keychain-db").path)
        #expect(refused.status == Int32(UInt8(truncatingIfNeeded: errSecNotAvailable)))
        let outcome = try keychainctl("error", "\(refused.status)", "34", "222")
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("keychainctl exit status 53: the keychain cannot be used here: an unsafe folder or file, or a TPM-sealed key with no TPM to unseal it (errSecNotAvailable, -25291: "))
        #expect(outcome.output.contains("keychainctl exit status 34: the low byte of errSecWrongSecVersion (-25310)"))
        #expect(outcome.output.contains("keychainctl exit status 222: the low byte of errSecDiskFull (-34)"))
    }

    /// `--version` prints the version and nothing else, as scripts that check it expect.
    @Test func versionPrintsOneLine() throws {
        let outcome = try keychainctl("--version")
        #expect(outcome.status == 0)
        #expect(outcome.errors.isEmpty)
        let line = outcome.output.dropLast()
        #expect(outcome.output.hasSuffix("\n") && !line.contains("\n"))
        // Semantic versioning: major.minor.patch, then an optional pre-release tag.
        #expect(line.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?/) != nil, "\(line)")
        // The manual page is generated from the same source and states the same version.
        let page = try String(contentsOf: SourceRulesTests.sources.deletingLastPathComponent()
            .appendingPathComponent("docs/keychainctl.1"), encoding: .utf8)
        #expect(page.contains(String(line)))
    }

    @Test func everySubcommandHasHelp() throws {
        for subcommand in ["add-generic-password", "add-internet-password", "find-generic-password",
                           "find-internet-password", "delete-generic-password", "delete-internet-password",
                           "dump-keychain", "error", "create-keychain", "delete-keychain", "list-keychains",
                           "default-keychain", "login-keychain", "unlock-keychain", "lock-keychain",
                           "set-keychain-password", "set-keychain-settings", "show-keychain-info",
                           "export-archive", "import-archive", "search", "sync"] {
            let help = try keychainctl(subcommand, "--help")
            #expect(help.status == 0, "\(subcommand)")
            #expect(help.output.contains("USAGE: keychainctl \(subcommand)"), "\(subcommand)")
        }
        let top = try keychainctl("--help")
        #expect(top.status == 0)
        #expect(top.output.contains("add-generic-password"))
        #expect(top.output.contains("Exit status"))
        let add = try keychainctl("add-generic-password", "--help")
        #expect(add.output.contains("--password-stdin"))
        #expect(add.output.contains("-T <app>"))
    }

    @Test func completionScriptsAreGenerated() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try keychainctl("--generate-completion-script", shell)
            #expect(script.status == 0, "\(shell)")
            #expect(script.output.contains("find-generic-password"), "\(shell)")
            #expect(script.output.contains("unlock-keychain"), "\(shell)")
            #expect(script.output.contains("on-duplicate"), "\(shell)")
        }
    }
}
