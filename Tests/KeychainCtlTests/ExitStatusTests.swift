import Foundation
import Testing

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
            Error: 0x00003039 12345 OSStatus 12345

            """)
        #expect(try keychainctl("error").status == 2)
        #expect(try keychainctl("error", "twelve").status == 2)
        #expect(try keychainctl("error", "--help").output.contains("USAGE: keychainctl error <code> ..."))
    }

    @Test func everySubcommandHasHelp() throws {
        for subcommand in ["add-generic-password", "add-internet-password", "find-generic-password",
                           "find-internet-password", "delete-generic-password", "delete-internet-password",
                           "dump-keychain", "error", "create-keychain", "delete-keychain", "list-keychains",
                           "default-keychain", "login-keychain", "unlock-keychain", "lock-keychain",
                           "set-keychain-password", "set-keychain-settings", "show-keychain-info",
                           "export-archive", "import-archive"] {
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
