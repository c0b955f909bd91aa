// keychainctl: Keychain Services from the command line, speaking as macOS `security` does.
import KeychainCtlCommands

ToolEntry.runProcess(KeychainCtl.self, syncRunner: SyncHandOff.self)
