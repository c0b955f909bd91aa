import ArgumentParser
import Foundation
import KeychainSync

/// `sync status`: the group, its members and how far this one is.
struct SyncStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the sync group, its members and this device's progress.")

    @Flag(help: "Do not ask the server for devices waiting to be approved.") var offline = false
    @OptionGroup var options: SyncOptions

    func run() async throws {
        let keychain = try SyncInvocation.keychain(options)
        let askServer = !offline
        let status = try await SyncInvocation.run("status") { () async throws(SyncFailure) in
            try await keychain.status(askServer: askServer, logger: SyncInvocation.logger)
        }
        var lines = [
            "server: \(status.server)",
            "group: \(status.group)",
            "device: \(status.device.name) (\(status.device.id))",
            "state: " + (status.fork != nil ? "stopped: the group has forked"
                : status.removed ? "removed from the group"
                : status.membership == .joining ? "waiting for approval" : "member"),
            "key epoch: \(status.epoch)",
            "members:",
        ]
        for member in status.members {
            lines.append("    \(member.id)  \(member.name)" + (member.isThisDevice ? "  (this device)" : ""))
        }
        lines.append("synced items: \(status.syncedItems)")
        lines.append("local changes not sent yet: \(status.pendingLocalChanges)")
        lines.append("last sync: " + (status.lastSync.map { ISO8601DateFormatter().string(from: $0) } ?? "never"))
        if let fork = status.fork {
            let when = status.forkDetected.map { " (detected \(ISO8601DateFormatter().string(from: $0)))" } ?? ""
            lines.append("FORK\(when): \(fork.summary)")
        }
        if let problem = status.lastProblem, status.fork.map({ problem != $0.summary }) ?? true {
            lines.append("last problem: \(problem)")
        }
        if let healing = status.lastHealing { lines.append("last healing: \(healing)") }
        if let waiting = status.waiting, !waiting.isEmpty {
            lines.append("waiting for approval: " + waiting.joined(separator: ", "))
        }
        if let warning = status.roleWarning { lines.append("warning: \(warning)") }
        ConsoleOutput.write(lines.joined(separator: "\n") + "\n")
    }
}
