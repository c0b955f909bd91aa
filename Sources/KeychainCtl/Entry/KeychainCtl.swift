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
            use. keychainctl sees the items of every program (every access group); its new items go \
            to its own access group, keychainctl, which apps do not see: --access-group <group> puts \
            an item in an app's group.

            An argument that is not valid UTF-8 is a usage error. Errors are printed as \
            keychainctl: <operation>: <message>. The library's warnings are shown; its error lines, \
            which these messages repeat, only when KEYCHAINCTL_LOG_LEVEL asks for a level (debug, \
            info, notice, warning, error).

            """ + "\n" + ExitStatus.summary,
        version: ToolVersion.current,
        subcommands: [
            AddPassword<GenericPasswordFields>.self,
            AddPassword<InternetPasswordFields>.self,
            FindPassword<GenericPasswordFields>.self,
            FindPassword<InternetPasswordFields>.self,
            DeletePassword<GenericPasswordFields>.self,
            DeletePassword<InternetPasswordFields>.self,
            DumpKeychain.self,
            SearchItems.self,
            AddCertificates.self,
            FindCertificate.self,
            DeleteCertificate.self,
            FindIdentity.self,
            VerifyCertificate.self,
            ImportItems.self,
            ExportItems.self,
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
            SyncCommand<SyncHandOff>.self,
            ErrorCommand.self,
        ])

    package init() {}
}
