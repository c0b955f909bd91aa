// keychain-sync: keychainctl's sync commands, in a program of their own so that keychainctl
// links neither the sync engine nor its network stack. `keychainctl sync ...` execs it with
// the same arguments (`sync ...`).
import KeychainCtlCommands

ToolEntry.runProcess(SyncProgramRoot.self, syncRunner: SyncCommandExecution.self)
