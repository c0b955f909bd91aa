import ArgumentParser

/// The root command: the subcommands of macOS `security` that work on keychains and their
/// items, and the archive subcommands Linux adds.
package struct KeychainCtl: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "keychainctl",
        abstract: "Keychains and their items from the command line, as with macOS security.",
        discussion: """
            Keychains live in $XDG_DATA_HOME/keychains (default ~/.local/share/keychains); the \
            default keychain, login unless default-keychain -s chose another, is created on first \
            use. keychainctl sees the items of every program (every access group).

            Exit status: 0 on success; 2 for a usage error; otherwise the Keychain Services status \
            truncated to 8 bits, e.g. 44 when the item is not found (-25300), 45 when it already \
            exists (-25299), 36 when its keychain is locked (-25308), 50 when the keychain does not \
            exist (-25294), 51 for a wrong password (-25293), 206 for a bad parameter (-50; an empty or \
            over-64-KiB password on standard input) and 93 when dump-keychain or export-archive skipped \
            items that failed to open (-26275). An argument that is not valid UTF-8 is a usage error. \
            Errors are printed as \
            keychainctl: <operation>: <message>; keychainctl error <code> explains a status.
            """,
        subcommands: [
            AddPassword<GenericPasswordFields>.self,
            AddPassword<InternetPasswordFields>.self,
            FindPassword<GenericPasswordFields>.self,
            FindPassword<InternetPasswordFields>.self,
            DeletePassword<GenericPasswordFields>.self,
            DeletePassword<InternetPasswordFields>.self,
            DumpKeychain.self,
            CreateKeychain.self,
            DeleteKeychain.self,
            ListKeychains.self,
            DefaultKeychain.self,
            LoginKeychain.self,
            UnlockKeychain.self,
            LockKeychain.self,
            SetKeychainPassword.self,
            SetKeychainSettings.self,
            ShowKeychainInfo.self,
            ExportArchive.self,
            ImportArchive.self,
            ErrorCommand.self,
        ])

    package init() {}
}
