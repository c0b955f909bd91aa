import ArgumentParser
import Foundation
import KeychainCtlCommands
import KeychainSync

/// keychain-sync's sync runner: each parsed sync command done with the sync engine.
enum SyncCommandExecution: SyncCommandRunner {
    static func validateJoinCode(_ code: String) throws {
        guard JoinCode(parsing: code) != nil else {
            throw ValidationError("'\(code)' is not a join code: 15 letters and digits, such as 4F7K2-QX9AB-M3N8P.")
        }
    }

    /// `sync setup`: a new group with this machine as its first member, or with
    /// `--server-only` the server's tables and role alone.
    static func setup(_ command: SyncSetup<Self>) async throws {
        if command.serverOnly { return try await prepareServer(command) }
        let keychain = try SyncInvocation.keychain(command.options)
        let membership = keychain.membership(logger: SyncInvocation.logger)
        let (server, name) = (try SyncInvocation.serverAddress(command.server), command.name ?? SyncInvocation.hostName)
        let configuration = try await SyncInvocation.run("setup") { () async throws(SyncFailure) in
            try await membership.setup(server: server, deviceName: name)
        }
        ConsoleOutput.write("""
            Created sync group \(configuration.group.hex) with this device, \(name) (\(configuration.device.publicIdentity.id.shortHex)).
            On another machine: keychainctl sync join --server <the same server>

            """)
        if command.installUnit { try installUnit(keychain) }
    }

    /// `sync setup --server-only`: the tables and the member role, for the database's owner.
    private static func prepareServer(_ command: SyncSetup<Self>) async throws {
        let server = try SyncInvocation.serverAddress(command.server)
        let roleExists = try await SyncInvocation.run("setup") { () async throws(SyncFailure) in
            try await SyncServerPreparation.prepare(server: server, logger: SyncInvocation.logger)
        }
        if roleExists {
            ConsoleOutput.write("""
                The sync tables are ready. Give each machine a login role of its own, then use it in that machine's --server:
                    CREATE ROLE <name> LOGIN PASSWORD '...' IN ROLE keychain_sync_member;

                """)
        } else {
            ConsoleOutput.write("""
                The sync tables are ready, but this role may not create keychain_sync_member. Have an administrator run
                    CREATE ROLE keychain_sync_member NOLOGIN;
                then run this command again, and give each machine a login role in it.

                """)
        }
    }

    /// `sync join`: the request and its code, then the wait for a member's approval.
    static func join(_ command: SyncJoin<Self>) async throws {
        let keychain = try SyncInvocation.keychain(command.options)
        let membership = keychain.membership(logger: SyncInvocation.logger)
        let (server, group, name) = (try SyncInvocation.serverAddress(command.server), command.group,
                                     command.name ?? SyncInvocation.hostName)
        let code = try await SyncInvocation.run("join") { () async throws(SyncFailure) in
            try await membership.join(server: server, groupHex: group, deviceName: name)
        }
        ConsoleOutput.write("""
            To admit this device (\(name)), run on a member: keychainctl sync approve \(code)

            """)
        if command.installUnit { try installUnit(keychain) }
        guard command.timeout > 0 else { return }
        // The code must reach a reader of a pipe before the wait.
        fflush(nil)
        let seconds = command.timeout
        let approved = try await SyncInvocation.run("join") { () async throws(SyncFailure) in
            try await membership.waitForApproval(timeout: .seconds(seconds))
        }
        guard approved else { throw SyncInvocation.toolFailure(.notApproved, command: "join") }
        ConsoleOutput.write("Approved: this device is a member of the sync group.\n")
    }

    static func approve(_ command: SyncApprove<Self>) async throws {
        guard let code = JoinCode(parsing: command.code) else { throw ValidationError("not a join code") }
        let keychain = try SyncInvocation.keychain(command.options)
        let membership = keychain.membership(logger: SyncInvocation.logger)
        let device = try await SyncInvocation.run("approve") { () async throws(SyncFailure) in
            try await membership.approve(code: code)
        }
        ConsoleOutput.write("Approved \(device.name) (\(device.id.shortHex)): it is now a member of the sync group.\n")
    }

    static func status(_ command: SyncStatusCommand<Self>) async throws {
        let keychain = try SyncInvocation.keychain(command.options)
        let askServer = !command.offline
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

    static func remove(_ command: SyncRemove<Self>) async throws {
        let keychain = try SyncInvocation.keychain(command.options)
        let membership = keychain.membership(logger: SyncInvocation.logger)
        let target = command.device
        let removed = try await SyncInvocation.run("remove") { () async throws(SyncFailure) in
            try await membership.remove(device: target)
        }
        ConsoleOutput.write("Removed \(removed.name) (\(removed.id.shortHex)) from the sync group; the group has a new key.\n")
    }

    static func leave(_ command: SyncLeave<Self>) async throws {
        let keychain = try SyncInvocation.keychain(command.options)
        let membership = keychain.membership(logger: SyncInvocation.logger)
        let local = command.local
        try await SyncInvocation.run("leave") { () async throws(SyncFailure) in
            if local { try membership.forget() } else { try await membership.leave() }
        }
        ConsoleOutput.write("This keychain has left its sync group; its items stay here.\n")
    }

    /// `sync run`: the agent, or with `--install-unit` its systemd unit.
    static func run(_ command: SyncRun<Self>) async throws {
        let keychain = try SyncInvocation.keychain(command.options)
        if command.installUnit {
            try installUnit(keychain)
            return
        }
        let agent = keychain.agent(logger: SyncInvocation.logger, interval: .seconds(command.interval))
        let once = command.once
        try await SyncInvocation.run("run") { () async throws(SyncFailure) in
            try await agent.run(once: once)
        }
    }

    /// Writes the systemd user unit that runs `sync run` on `keychain` (setup, join and run's
    /// `--install-unit`).
    private static func installUnit(_ keychain: SyncKeychain) throws {
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
