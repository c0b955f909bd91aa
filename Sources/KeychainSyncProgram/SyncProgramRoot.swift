import ArgumentParser
import KeychainCtlCommands

/// keychain-sync's root command: keychainctl's, with the sync commands alone. It is named
/// `keychainctl` and reads keychainctl's command line (`sync setup ...`), so that the
/// arguments keychainctl hands over are read as keychainctl read them, and help and errors
/// name the command the user typed.
struct SyncProgramRoot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychainctl",
        abstract: "keychainctl's sync commands: keychainctl sync ... runs this program with the same arguments.",
        version: ToolVersion.current,
        subcommands: [SyncCommand<SyncCommandExecution>.self])
}
