import ArgumentParser

/// `keychainctl sync`: keeps the synchronizable items of a keychain the same on several
/// machines, end-to-end encrypted, through a PostgreSQL server.
package struct SyncCommand<Runner: SyncCommandRunner>: ParsableCommand {
    package static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "sync",
            abstract: "Sync synchronizable items between machines through PostgreSQL.",
            discussion: """
                Items added with kSecAttrSynchronizable true (and a protection that is not \
                ThisDeviceOnly) follow the user to every machine of the sync group: added, changed or \
                deleted on one, the same on the others. The server stores only ciphertext, opaque ids, \
                versions and the devices' public keys; each machine keeps its own keys, and the group's \
                key reaches a new machine only when a member approves it after comparing a code.

                First machine: sync setup --server <url>. Each other machine: sync join --server <url>, \
                then sync approve <code> on a member. Then keep sync run going on each machine (sync \
                setup and join --install-unit write a systemd user unit for it).
                """,
            subcommands: [SyncSetup<Runner>.self, SyncJoin<Runner>.self, SyncApprove<Runner>.self,
                          SyncStatusCommand<Runner>.self, SyncRemove<Runner>.self, SyncLeave<Runner>.self,
                          SyncRun<Runner>.self])
    }

    package init() {}

    /// Whether `command` is one of these subcommands: the asynchronous commands, run by
    /// `Runner`. A comparison of types, not a cast to a protocol: a cast that fails scans every
    /// protocol conformance record of the program and its libraries (half a million
    /// instructions), and would do so at every start of every other command.
    package static func isSubcommand(_ command: any ParsableCommand) -> Bool {
        let parsed = ObjectIdentifier(type(of: command))
        return configuration.subcommands.contains { ObjectIdentifier($0) == parsed }
    }
}

/// The options every sync subcommand takes.
package struct SyncOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The keychain to sync: a name or a path (default: the default keychain).", valueName: "keychain"))
    package var keychain: String?

    package init() {}
}
