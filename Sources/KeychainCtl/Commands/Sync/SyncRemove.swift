import ArgumentParser
import KeychainSync

/// `sync remove DEVICE`: takes another device out of the group.
struct SyncRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Take a device out of the sync group (a lost or retired machine).",
        discussion: """
            The group gets a new key that the removed device never sees: it cannot read what is \
            written after, and what it writes after is rejected by every member. Name the device \
            by its id (sync status shows the start of it) or by its name.
            """)

    @Argument(help: "The device's id, the start of it, or its name.") var device: String
    @OptionGroup var options: SyncOptions

    func run() async throws {
        let keychain = try SyncInvocation.keychain(options)
        let membership = keychain.membership(logger: SyncInvocation.logger)
        let target = device
        let removed = try await SyncInvocation.run("remove") { () async throws(SyncFailure) in
            try await membership.remove(device: target)
        }
        ConsoleOutput.write("Removed \(removed.name) (\(removed.id.shortHex)) from the sync group; the group has a new key.\n")
    }
}
