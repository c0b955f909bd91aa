// keychainctl: Keychain Services from the command line, speaking as macOS `security` does.
ToolEntry.run(Array(CommandLine.arguments.dropFirst()))
