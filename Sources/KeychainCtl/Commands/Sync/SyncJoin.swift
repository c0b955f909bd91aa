import ArgumentParser
import Foundation
import KeychainSync

/// `sync join`: asks to join the group on a server, shows the code to compare, and waits for
/// a member's approval.
struct SyncJoin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Ask to join the sync group on a server; a member approves with the code shown.",
        discussion: """
            Prints a code such as 4F7K2-QX9AB-M3N8P. On a machine that is already a member, run \
            keychainctl sync approve with that code: the code binds this device's keys and the \
            group, so a server that swapped either cannot get the approval. join waits for the \
            approval (--timeout), then the first sync run brings the group's items.
            """)

    @Option(help: "The PostgreSQL server, as a URL, as for sync setup (default: $KEYCHAIN_SYNC_SERVER).") var server: String?
    @Option(help: "The group's id, when the server holds several (sync status on a member shows it).") var group: String?
    @Option(help: "This device's name in the group (default: the host name).") var name: String?
    @Option(help: "Seconds to wait for the approval; 0 returns at once (sync run finishes the join).") var timeout: Int = 600
    @Flag(help: "Also write a systemd user unit that runs sync run.") var installUnit = false
    @OptionGroup var options: SyncOptions

    func run() async throws {
        let keychain = try SyncInvocation.keychain(options)
        let membership = keychain.membership(logger: SyncInvocation.logger)
        let (server, group, name) = (try SyncInvocation.serverAddress(self.server), self.group, self.name ?? SyncInvocation.hostName)
        let code = try await SyncInvocation.run("join") { () async throws(SyncFailure) in
            try await membership.join(server: server, groupHex: group, deviceName: name)
        }
        ConsoleOutput.write("""
            To admit this device (\(name)), run on a member: keychainctl sync approve \(code)

            """)
        if installUnit { try SyncRun.installUnit(keychain) }
        guard timeout > 0 else { return }
        // The code must reach a reader of a pipe before the wait.
        fflush(nil)
        let seconds = timeout
        let approved = try await SyncInvocation.run("join") { () async throws(SyncFailure) in
            try await membership.waitForApproval(timeout: .seconds(seconds))
        }
        guard approved else { throw SyncInvocation.toolFailure(.notApproved, command: "join") }
        ConsoleOutput.write("Approved: this device is a member of the sync group.\n")
    }
}
