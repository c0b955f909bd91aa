/// What a parsed sync subcommand does: the commands are declared once, here, so that
/// keychainctl and keychain-sync read the same command line with the same help and errors;
/// the work is the runner's.
///
/// keychainctl's runner is ``SyncHandOff``: keychainctl does not link the sync engine and its
/// network stack, so it parses a sync command line (answering `--help` and usage errors
/// itself) and hands it to keychain-sync. keychain-sync's runner opens the keychain and does
/// the work.
package protocol SyncCommandRunner {
    static func setup(_ command: SyncSetup<Self>) async throws
    static func join(_ command: SyncJoin<Self>) async throws
    static func approve(_ command: SyncApprove<Self>) async throws
    static func status(_ command: SyncStatusCommand<Self>) async throws
    static func remove(_ command: SyncRemove<Self>) async throws
    static func leave(_ command: SyncLeave<Self>) async throws
    static func run(_ command: SyncRun<Self>) async throws
    /// Checks the code `sync approve` was given, which only the sync engine can read.
    static func validateJoinCode(_ code: String) throws
}
