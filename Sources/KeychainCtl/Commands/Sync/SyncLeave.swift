import ArgumentParser

/// `sync leave`: takes this device out of its group.
package struct SyncLeave<Runner: SyncCommandRunner>: AsyncParsableCommand {
    package static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "leave",
            abstract: "Take this device out of its sync group.",
            discussion: """
                The other members get a new key; this keychain forgets the group's keys and its sync \
                state. The items stay in this keychain and no longer sync. With --local, only this \
                keychain forgets (for a device already removed, or a server that is gone).
                """)
    }

    @Flag(help: "Forget the group here without telling the server.") package var local = false
    @OptionGroup package var options: SyncOptions

    package init() {}

    package func run() async throws {
        try await Runner.leave(self)
    }
}
