import ArgumentParser

/// `sync run`: the agent.
package struct SyncRun<Runner: SyncCommandRunner>: AsyncParsableCommand {
    package static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "run",
            abstract: "Keep this keychain in sync (the agent); one per keychain.",
            discussion: """
                Sends this keychain's changes to synchronizable items and applies the other members' \
                as they happen (PostgreSQL notifies it), and at least every --interval seconds. When \
                the server is unreachable or the keychain locked it tries again with growing pauses; \
                what changed meanwhile is kept and sent later. Stops on SIGTERM or SIGINT. \
                --install-unit writes a systemd user unit that runs it instead.
                """)
    }

    @Flag(help: "One pass, then exit (for cron or scripts).") package var once = false
    @Option(help: "Seconds between passes when nothing wakes the agent.") package var interval: Int = 30
    @Flag(help: "Write a systemd user unit that runs sync run, and exit.") package var installUnit = false
    @OptionGroup package var options: SyncOptions

    package init() {}

    package func validate() throws {
        guard interval >= 1 && interval <= 86_400 else { throw ValidationError("--interval is 1 to 86400 seconds.") }
    }

    package func run() async throws {
        try await Runner.run(self)
    }
}
