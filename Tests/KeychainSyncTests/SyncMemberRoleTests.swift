import Foundation
import Testing
import TestSupport

/// Sync with each machine connecting as a database role of its own in keychain_sync_member,
/// as docs/Sync.md sets it up, with keychainctl as users run it against a real PostgreSQL.
@Suite("Sync with member database roles", .serialized,
       .enabled(if: PostgresTestServer.isInstalled, "needs PostgreSQL (Scripts/test installs it)"))
struct SyncMemberRoleTests {
    /// Requirement "members that may only read and append still sync": setup (the tables
    /// made by the database's owner beforehand), join, approve, push and pull both ways,
    /// remove and leave all work with roles that cannot delete, and such a member is not
    /// warned about its role.
    @Test func membersWithLeastPrivilegeSyncJoinRemoveAndLeave() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let setup = try SyncMember("owner")
        // The owner makes the tables (and the member role) without joining the group.
        let migrate = try setup.run("sync", "setup", "--server", server.tcpAddress(), "--server-only")
        #expect(migrate.status == 0, "\(migrate.errors)")
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        var addresses: [String: String] = [:]
        for member in [a, b, c] {
            addresses[member.name] = try SyncServerPrivilegeTests.memberRole("machine_\(member.name)", on: server)
        }
        try formGroupWithRoles(founder: a, at: addresses["a"] ?? "", others: [(b, addresses["b"] ?? ""), (c, addresses["c"] ?? "")])

        try a.store(service: "from-a", account: "x", password: "secret-a")
        try b.store(service: "from-b", account: "x", password: "secret-b")
        for member in [a, b, c, a] {
            let pass = try member.run("sync", "run", "--once")
            #expect(pass.status == 0, "\(member.name): \(pass.errors)")
            #expect(!pass.errors.contains("can delete"), "\(member.name) is not warned about its role")
        }
        #expect(try b.password(service: "from-a", account: "x") == "secret-a")
        #expect(try a.password(service: "from-b", account: "x") == "secret-b")
        #expect(try c.password(service: "from-b", account: "x") == "secret-b")
        let status = try a.run("sync", "status")
        #expect(status.status == 0 && !status.output.contains("can delete"), "\(status.output)")

        let removal = try a.run("sync", "remove", "c")
        #expect(removal.status == 0, "\(removal.errors)")
        let leave = try b.run("sync", "leave")
        #expect(leave.status == 0, "\(leave.errors)")
        try a.delete(service: "from-a", account: "x")
        let pass = try a.run("sync", "run", "--once")
        #expect(pass.status == 0, "\(pass.errors)")
        // Two joins, the removal and the leave: four rosters after the genesis.
        #expect(try server.psql("SELECT max(epoch) FROM keychain_sync_rosters") == "4\n")
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_records WHERE tombstone") == "1\n")
    }

    /// Requirement "a member connecting with a role that can delete is told so": the table
    /// owner's role, used as a member's, gets a plain warning from `sync status` and once in
    /// the agent's log, with what to do.
    @Test func memberUsingTheOwnersRoleIsWarned() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let a = try SyncMember("a")
        try formGroup(server: server.tcpAddress(), founder: a, others: [])
        let status = try a.run("sync", "status")
        #expect(status.status == 0)
        #expect(status.output.contains("can delete"), "\(status.output)")
        #expect(status.output.contains("keychain_sync_member"), "\(status.output)")
        let pass = try a.run("sync", "run", "--once")
        #expect(pass.status == 0, "\(pass.errors)")
        #expect(pass.errors.components(separatedBy: "can delete").count == 2, "once: \(pass.errors)")
    }

    /// Sets up a group with `founder` at its address and admits each of `others`, each at its own.
    private func formGroupWithRoles(founder: SyncMember, at address: String, others: [(SyncMember, String)]) throws {
        let setup = try founder.run("sync", "setup", "--server", address, "--name", founder.name)
        guard setup.status == 0 else { throw SyncTestFailure("sync setup: \(setup.errors)") }
        for (member, url) in others { try admit(member, server: url, approver: founder) }
    }
}
