import ArgumentParser

/// `sync status`: the group, its members and how far this one is.
package struct SyncStatusCommand<Runner: SyncCommandRunner>: AsyncParsableCommand {
    package static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "status",
            abstract: "Show the sync group, its members and this device's progress.")
    }

    @Flag(help: "Do not ask the server for devices waiting to be approved.") package var offline = false
    @OptionGroup package var options: SyncOptions

    package init() {}

    package func run() async throws {
        try await Runner.status(self)
    }
}
