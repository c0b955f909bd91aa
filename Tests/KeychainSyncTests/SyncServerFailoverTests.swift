import Foundation
import Testing
import TestSupport
@testable import KeychainSync
#if canImport(Glibc)
import Glibc
#endif

/// Sync on a replicated PostgreSQL: an address naming the primary and its standby
/// (`postgres://user@host1:port1,host2:port2/db`, as libpq takes it), a failover, and members
/// that carry on without any change to their configuration.
///
/// What sync needs from the database: read-your-writes on the primary (every call goes to the
/// one primary, which PostgreSQL gives), and, for no acknowledged record to be lost at
/// failover, synchronous replication (`synchronous_standby_names`). With asynchronous
/// replication a record the primary acknowledged but had not yet shipped is lost with it,
/// and nothing sends it again: the agent clears its change log once the server acknowledged
/// a push, so the item reaches the other members only when it is next changed. Worse, the
/// promoted standby's record sequence may then restart below sequences members already
/// read, and they would skip records until it passes them. The test therefore runs with
/// synchronous replication, the configuration to recommend.
@Suite("Sync with a replicated server", .serialized, .tags(.slow),
       .enabled(if: PostgresTestServer.isInstalled, "needs PostgreSQL (Scripts/test installs it)"))
struct SyncServerFailoverTests {
    /// Issue requirement "tests failover to a promoted standby": two members whose address
    /// names the primary and its standby sync; the primary is killed (SIGKILL) and the standby
    /// promoted; a write on either member then reaches the other, with the same address, and
    /// what was synced before the failover is still there.
    @Test func membersCarryOnAfterThePrimaryDiesAndTheStandbyIsPromoted() async throws {
        let primary = try PostgresTestServer()
        defer { primary.remove() }
        let standby = try primary.makeStandby(synchronous: true)
        defer { standby.remove() }
        let address = "postgres://\(PostgresTestServer.user):\(primary.password)@localhost:\(primary.port),"
            + "localhost:\(standby.port)/\(PostgresTestServer.database)?sslmode=disable"
        let (laptop, desktop) = (try SyncMember("laptop"), try SyncMember("desktop"))
        try formGroup(server: address, founder: laptop, others: [desktop])
        try laptop.startAgent()
        try desktop.startAgent()

        try laptop.store(service: "before-failover", account: "me", password: "synced-before")
        try eventually(30, "the item reaches the desktop through the primary") {
            try desktop.password(service: "before-failover", account: "me") == "synced-before"
        }
        // The standby has it too: synchronous replication acknowledged it there first.
        #expect(try standby.psql("SELECT count(*) FROM keychain_sync_records").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(try standby.isStandby)

        try primary.kill9()
        try standby.promote()
        #expect(try !standby.isStandby)

        try laptop.store(service: "after-failover", account: "me", password: "written-after")
        try eventually(60, "a write after the failover reaches the desktop") {
            try desktop.password(service: "after-failover", account: "me") == "written-after"
        }
        try desktop.store(service: "before-failover", account: "me", password: "changed-after", update: true)
        try eventually(60, "a change on the other member reaches the laptop") {
            try laptop.password(service: "before-failover", account: "me") == "changed-after"
        }
        // The records are on the promoted standby, and the members still name both hosts.
        #expect(try standby.psql("SELECT count(*) FROM keychain_sync_records").trimmingCharacters(in: .whitespacesAndNewlines) == "2")
        let status = try laptop.run("sync", "status")
        #expect(status.output.contains("localhost:\(primary.port),localhost:\(standby.port)"), "\(status.output)")
        #expect(laptop.stopAgent() == 0)
        #expect(desktop.stopAgent() == 0)
    }

    /// Rule "the connection uses the first host that is a primary": with the standby named
    /// first, setup still reaches the primary (a standby refuses writes), and with only a
    /// standby named, setup fails with a message saying so.
    @Test func aStandbyIsPassedOverAndNeverWrittenTo() async throws {
        let primary = try PostgresTestServer()
        defer { primary.remove() }
        let standby = try primary.makeStandby(synchronous: false)
        defer { standby.remove() }
        let onlyStandby = try SyncMember("only-standby")
        let refused = try onlyStandby.run("sync", "setup", "--server", standby.tcpAddress(), "--name", "only-standby")
        #expect(refused.status != 0)
        #expect(refused.errors.contains("read-only standby"), "\(refused.errors)")

        let founder = try SyncMember("founder")
        let address = "postgres://\(PostgresTestServer.user):\(primary.password)@localhost:\(standby.port),"
            + "localhost:\(primary.port)/\(PostgresTestServer.database)?sslmode=disable"
        let setup = try founder.run("sync", "setup", "--server", address, "--name", "founder")
        #expect(setup.status == 0, "\(setup.errors)")
        #expect(try primary.psql("SELECT count(*) FROM keychain_sync_groups").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    /// Rule "after a failure the connection tries the hosts again from the start", at the
    /// server layer: one `SyncServer` whose address names the standby first and the primary
    /// second writes to the primary; with the primary killed and the standby not yet
    /// promoted, calls fail saying no host is a primary (naming each host's reason); once it
    /// is promoted, the same object reads the record acknowledged before (synchronous
    /// replication) and writes again.
    @Test func oneServerConnectionFollowsThePromotedStandby() async throws {
        let primary = try PostgresTestServer()
        defer { primary.remove() }
        let standby = try primary.makeStandby(synchronous: true)
        defer { standby.remove() }
        let address = "postgres://\(PostgresTestServer.user):\(primary.password)@localhost:\(standby.port),"
            + "localhost:\(primary.port)/\(PostgresTestServer.database)?sslmode=disable"
        try await SyncServerFixture.withServer(address) { server in
            try await server.migrate()
            let group = SyncServerFixture.randomBytes(16)
            try await server.createGroup(group, genesis: Data("genesis roster".utf8))
            let first = (itemID: SyncServerFixture.randomBytes(32), version: SyncServerFixture.version(1), isTombstone: false,
                         record: Data("acknowledged before the failover".utf8))
            _ = try await server.append(group, records: [first])
            #expect(try primary.psql("SELECT count(*) FROM keychain_sync_records").trimmingCharacters(in: .whitespacesAndNewlines) == "1")

            try primary.kill9()
            // The first call may only find the old connection broken; the next one looks for a primary.
            var failures: [SyncServerError] = []
            for _ in 0..<2 {
                do throws(SyncServerError) {
                    _ = try await server.groups()
                } catch {
                    failures.append(error)
                }
            }
            #expect(failures.count == 2)
            let last = failures.last?.description ?? ""
            #expect(last.contains("no host is a primary") && last.contains("localhost:\(standby.port): it is a read-only standby"), "\(last)")
            #expect(!last.contains(primary.password))

            try standby.promote()
            let records = try await server.records(group, after: 0, limit: 10)
            #expect(records.map(\.record) == [first.record])
            let second = (itemID: SyncServerFixture.randomBytes(32), version: SyncServerFixture.version(2), isTombstone: false,
                          record: Data("written after the failover".utf8))
            _ = try await server.append(group, records: [second])
            #expect(try await server.records(group, after: 0, limit: 10).map(\.record) == [first.record, second.record])
        }
    }
}
