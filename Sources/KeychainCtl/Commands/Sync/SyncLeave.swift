import ArgumentParser
import KeychainSync

/// `sync leave`: takes this device out of its group.
struct SyncLeave: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave",
        abstract: "Take this device out of its sync group.",
        discussion: """
            The other members get a new key; this keychain forgets the group's keys and its sync \
            state. The items stay in this keychain and no longer sync. With --local, only this \
            keychain forgets (for a device already removed, or a server that is gone).
            """)

    @Flag(help: "Forget the group here without telling the server.") var local = false
    @OptionGroup var options: SyncOptions

    func run() async throws {
        let keychain = try SyncInvocation.keychain(options)
        let membership = keychain.membership(logger: SyncInvocation.logger)
        let local = self.local
        try await SyncInvocation.run("leave") { () async throws(SyncFailure) in
            if local { try membership.forget() } else { try await membership.leave() }
        }
        ConsoleOutput.write("This keychain has left its sync group; its items stay here.\n")
    }
}
