import ArgumentParser

/// `sync join`: asks to join the group on a server, shows the code to compare, and waits for
/// a member's approval.
package struct SyncJoin<Runner: SyncCommandRunner>: AsyncParsableCommand {
    package static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "join",
            abstract: "Ask to join the sync group on a server; a member approves with the code shown.",
            discussion: """
                Prints a code such as 4F7K2-QX9AB-M3N8P. On a machine that is already a member, run \
                keychainctl sync approve with that code: the code binds this device's keys and the \
                group, so a server that swapped either cannot get the approval. join waits for the \
                approval (--timeout), then the first sync run brings the group's items.
                """)
    }

    @Option(help: "The PostgreSQL server, as a URL, as for sync setup (default: $KEYCHAIN_SYNC_SERVER).") package var server: String?
    @Option(help: "The group's id, when the server holds several (sync status on a member shows it).") package var group: String?
    @Option(help: "This device's name in the group (default: the host name).") package var name: String?
    @Option(help: "Seconds to wait for the approval; 0 returns at once (sync run finishes the join).") package var timeout: Int = 600
    @Flag(help: "Also write a systemd user unit that runs sync run.") package var installUnit = false
    @OptionGroup package var options: SyncOptions

    package init() {}

    package func run() async throws {
        try await Runner.join(self)
    }
}
