// keychainctl: Keychain Services from the command line, speaking as macOS `security` does.
import KeychainCtlCommands

ToolEntry.run(Array(CommandLine.arguments.dropFirst()))
