import ArgumentParser

/// `sync remove DEVICE`: takes another device out of the group.
package struct SyncRemove<Runner: SyncCommandRunner>: AsyncParsableCommand {
    package static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "remove",
            abstract: "Take a device out of the sync group (a lost or retired machine).",
            discussion: """
                The group gets a new key that the removed device never sees: it cannot read what is \
                written after, and what it writes after is rejected by every member. Name the device \
                by its id (sync status shows the start of it) or by its name.
                """)
    }

    @Argument(help: "The device's id, the start of it, or its name.") package var device: String
    @OptionGroup package var options: SyncOptions

    package init() {}

    package func run() async throws {
        try await Runner.remove(self)
    }
}
