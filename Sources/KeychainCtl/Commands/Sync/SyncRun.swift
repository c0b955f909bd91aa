import ArgumentParser
import Foundation
import KeychainSync

/// `sync run`: the agent.
struct SyncRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Keep this keychain in sync (the agent); one per keychain.",
        discussion: """
            Sends this keychain's changes to synchronizable items and applies the other members' \
            as they happen (PostgreSQL notifies it), and at least every --interval seconds. When \
            the server is unreachable or the keychain locked it tries again with growing pauses; \
            what changed meanwhile is kept and sent later. Stops on SIGTERM or SIGINT. \
            --install-unit writes a systemd user unit that runs it instead.
            """)

    @Flag(help: "One pass, then exit (for cron or scripts).") var once = false
    @Option(help: "Seconds between passes when nothing wakes the agent.") var interval: Int = 30
    @Flag(help: "Write a systemd user unit that runs sync run, and exit.") var installUnit = false
    @OptionGroup var options: SyncOptions

    func validate() throws {
        guard interval >= 1 && interval <= 86_400 else { throw ValidationError("--interval is 1 to 86400 seconds.") }
    }

    func run() async throws {
        let keychain = try SyncInvocation.keychain(options)
        if installUnit {
            try Self.installUnit(keychain)
            return
        }
        let agent = keychain.agent(logger: SyncInvocation.logger, interval: .seconds(interval))
        let once = self.once
        try await SyncInvocation.run("run") { () async throws(SyncFailure) in
            try await agent.run(once: once)
        }
    }

    static func installUnit(_ keychain: SyncKeychain) throws {
        let unit: SyncUnitFile
        let path: String
        do {
            unit = try keychain.unitFile(executable: SyncInvocation.executablePath,
                                         environment: ProcessInfo.processInfo.environment)
            path = try unit.install()
        } catch {
            throw SyncInvocation.toolFailure(error, command: "run")
        }
        ConsoleOutput.write("""
            Wrote \(path).
            Start it now and at every login: systemctl --user daemon-reload && systemctl --user enable --now \(unit.unitName)

            """)
    }
}
