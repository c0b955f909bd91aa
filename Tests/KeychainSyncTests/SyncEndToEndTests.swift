import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Sync as users run it: keychainctl processes on separate member folders, each with its own
/// agent process, through a real PostgreSQL started for the test.
@Suite("Sync between machines, end to end", .serialized)
struct SyncEndToEndTests {
    /// Issue requirement "a user follows the README on two machines": setup, join, approve,
    /// agents; an item added on one appears on the other, an update on either reaches the other,
    /// a delete removes every copy; an item that is not synchronizable stays where it is.
    @Test func twoMachinesFollowTheReadme() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (laptop, desktop) = (try SyncMember("laptop"), try SyncMember("desktop"))
        try formGroup(server: server.tcpAddress(), founder: laptop, others: [desktop])
        try laptop.startAgent()
        try desktop.startAgent()

        try laptop.run("add-generic-password", "-s", "local-only", "-a", "me", "-w", "stays-here")
        try laptop.store(service: "api.example.com", account: "deploy", password: "first-secret")
        try eventually(30, "the item reaches the desktop") {
            try desktop.password(service: "api.example.com", account: "deploy") == "first-secret"
        }
        // Sent in the same pass or earlier, had it been sent at all.
        #expect(try desktop.password(service: "local-only", account: "me") == nil)

        try desktop.store(service: "api.example.com", account: "deploy", password: "second-secret", update: true)
        try eventually(30, "the update reaches the laptop") {
            try laptop.password(service: "api.example.com", account: "deploy") == "second-secret"
        }

        try laptop.delete(service: "api.example.com", account: "deploy")
        try eventually(30, "the delete reaches the desktop") {
            try desktop.password(service: "api.example.com", account: "deploy") == nil
        }

        let status = try desktop.run("sync", "status")
        #expect(status.status == 0)
        #expect(status.output.contains("state: member"))
        #expect(status.output.contains("laptop"))
        #expect(status.output.contains("desktop  (this device)") || status.output.contains("desktop (this device)")
                || status.output.contains("  desktop  (this device)"))
        #expect(laptop.stopAgent() == 0)
        #expect(desktop.stopAgent() == 0)
    }

    /// Requirement "a tampering server": a record with a flipped byte, a record moved to another
    /// item's id and an older version replayed after a newer one are never applied; the member
    /// keeps the right secret and logs the rejections.
    @Test func tamperedRecordsAreRejected() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (writer, reader) = (try SyncMember("writer"), try SyncMember("reader"))
        try formGroup(server: server.tcpAddress(), founder: writer, others: [reader])

        try writer.store(service: "flip", account: "a", password: "flip-secret")
        try writer.store(service: "moved", account: "a", password: "moved-secret")
        try writer.store(service: "target", account: "a", password: "target-secret")
        try writer.store(service: "replayed", account: "a", password: "old-secret")
        #expect(try writer.run("sync", "run", "--once").status == 0)
        let old = try server.psql("SELECT encode(record, 'hex') || ' ' || encode(item_id, 'hex') || ' ' || encode(version, 'hex') FROM keychain_sync_records ORDER BY sequence DESC LIMIT 1")
        try writer.store(service: "replayed", account: "a", password: "new-secret", update: true)
        #expect(try writer.run("sync", "run", "--once").status == 0)

        // Rows in the order written: flip, moved, target, then replayed's newest.
        let rows = try server.psql("SELECT sequence FROM keychain_sync_records ORDER BY sequence").split(separator: "\n").map(String.init)
        #expect(rows.count == 4)
        let (flip, moved, target) = (rows[0], rows[1], rows[2])
        try server.psql("UPDATE keychain_sync_records SET record = set_byte(record, length(record) / 2, get_byte(record, length(record) / 2) # 1) WHERE sequence = \(flip)")
        try server.psql("UPDATE keychain_sync_records SET item_id = (SELECT item_id FROM keychain_sync_records WHERE sequence = \(target)) WHERE sequence = \(moved)")
        let parts = old.split(separator: " ").map(String.init)
        try #require(parts.count == 3)
        try server.psql("""
            INSERT INTO keychain_sync_records (group_id, item_id, version, tombstone, record)
            SELECT group_id, decode('\(parts[1])', 'hex'), decode('\(parts[2])', 'hex'), false, decode('\(parts[0])', 'hex')
            FROM keychain_sync_records LIMIT 1
            """)

        let pass = try reader.run("sync", "run", "--once")
        #expect(pass.status == 0)
        #expect(try reader.password(service: "flip", account: "a") == nil)
        #expect(try reader.password(service: "moved", account: "a") == nil)
        #expect(try reader.password(service: "target", account: "a") == "target-secret")
        #expect(try reader.password(service: "replayed", account: "a") == "new-secret")
        #expect(pass.errors.contains("rejected a record"))
        #expect(!pass.errors.contains("flip-secret") && !pass.errors.contains("moved-secret"))
    }

    /// A row injected on the server that claims a far-future key epoch, with no valid
    /// signature, used to stop every member's pull at it (waiting for a key that never
    /// comes) until the row was removed: it is rejected, logged, and the records after it
    /// arrive in the same pass.
    @Test func aForgedFutureEpochIsRejectedNotWaitedFor() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (writer, reader) = (try SyncMember("writer"), try SyncMember("reader"))
        try formGroup(server: server.tcpAddress(), founder: writer, others: [reader])
        try writer.store(service: "before", account: "a", password: "before-secret")
        #expect(try writer.run("sync", "run", "--once").status == 0)
        // A copy of that record under a newer version (the version's last byte, in the column
        // and at header bytes 53..<85) claiming epoch 2^40 (header bytes 85..<93): what an
        // attacker with the server's database can write, there beside the real one (the
        // superseding trigger off for this session, as the database's owner can).
        try server.psql("""
            SET session_replication_role = replica;
            INSERT INTO keychain_sync_records (group_id, item_id, version, tombstone, record)
            SELECT group_id, item_id, set_byte(version, 31, (get_byte(version, 31) + 1) % 256), false,
                   overlay(set_byte(record, 84, (get_byte(record, 84) + 1) % 256)
                           placing decode('0000010000000000', 'hex') from 86 for 8)
            FROM keychain_sync_records ORDER BY sequence LIMIT 1
            """)
        try writer.store(service: "after", account: "a", password: "after-secret")
        #expect(try writer.run("sync", "run", "--once").status == 0)

        let pass = try reader.run("sync", "run", "--once")
        #expect(pass.status == 0, "\(pass.errors)")
        #expect(try reader.password(service: "before", account: "a") == "before-secret")
        #expect(try reader.password(service: "after", account: "a") == "after-secret")
        #expect(pass.errors.contains("rejected a record"), "\(pass.errors)")
        #expect(pass.errors.contains("names a roster head this member does not know, at epoch \(UInt64(1) << 40)"),
                "\(pass.errors)")
    }

    /// Requirement "no secret, account, service or label in the clear" on the server: its data
    /// folder (tables and write-ahead log) and a pg_dump hold none of them.
    @Test func serverHoldsNoPlaintext() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        let markers = ["svc-MARKER-7f3a", "acct-MARKER-91c2", "label-MARKER-55d0", "secret-MARKER-e4b8"]
        try a.run("add-generic-password", "--synchronizable", "-s", markers[0], "-a", markers[1], "-l", markers[2], "-w", markers[3])
        let sent = try a.run("sync", "run", "--once")
        #expect(sent.status == 0, "\(sent.errors)")
        #expect(try b.run("sync", "run", "--once").status == 0)
        #expect(try b.password(service: markers[0], account: markers[1]) == markers[3])
        try server.psql("CHECKPOINT")
        let dump = try server.dump()
        #expect(!dump.isEmpty)
        for marker in markers {
            #expect(!dump.contains(marker), "pg_dump holds \(marker)")
            #expect(try server.dataFolderContains(Data(marker.utf8)) == false, "the data folder holds \(marker)")
        }
    }

    /// Requirement "removing a member rotates the group key": a removed member gets nothing
    /// written after, and learns it was removed.
    @Test func removedMemberReadsNothingNew() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        try a.store(service: "before", account: "x", password: "shared-before")
        for member in [a, b, c] { #expect(try member.run("sync", "run", "--once").status == 0) }
        #expect(try c.password(service: "before", account: "x") == "shared-before")

        let removal = try a.run("sync", "remove", "c")
        #expect(removal.status == 0, "\(removal.errors)")
        try a.store(service: "after", account: "x", password: "only-for-a-and-b")
        #expect(try a.run("sync", "run", "--once").status == 0)
        #expect(try b.run("sync", "run", "--once").status == 0)
        #expect(try b.password(service: "after", account: "x") == "only-for-a-and-b")

        let removed = try c.run("sync", "run", "--once")
        #expect(removed.status != 0)
        #expect(removed.errors.contains("removed"))
        #expect(try c.password(service: "after", account: "x") == nil)
        // What it had stays with it.
        #expect(try c.password(service: "before", account: "x") == "shared-before")
    }

    /// Requirement "deletes as tombstones, kept long enough for offline members, then
    /// collected": a member's pass collects tombstones older than 30 days, and a member whose
    /// last pass is older than that deletes the items whose deletion it can no longer read.
    @Test func longAbsentMemberLearnsOfExpiredDeletions() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "kept", account: "x", password: "still-here")
        try a.store(service: "gone", account: "x", password: "deleted-later")
        #expect(try a.run("sync", "run", "--once").status == 0)
        #expect(try b.run("sync", "run", "--once").status == 0)
        #expect(try b.password(service: "gone", account: "x") == "deleted-later")

        try a.delete(service: "gone", account: "x")
        #expect(try a.run("sync", "run", "--once").status == 0)
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_records WHERE tombstone").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        // Thirty-one days pass for the server's tombstone and for b, which stayed away.
        try server.psql("UPDATE keychain_sync_records SET stored_at = now() - interval '31 days' WHERE tombstone")
        // a collected last an hour ago, so its next pass collects again.
        try a.ageSyncState(key: "lastCollection", byMilliseconds: 3_600_000)
        #expect(try a.run("sync", "run", "--once").status == 0)
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_records WHERE tombstone").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        try b.ageSyncState(key: "lastSync", byMilliseconds: 31 * 86_400_000)

        #expect(try b.run("sync", "run", "--once").status == 0)
        #expect(try b.password(service: "gone", account: "x") == nil)
        #expect(try b.password(service: "kept", account: "x") == "still-here")
    }

    /// Requirement "a systemd user unit that sync setup can install": `sync run --install-unit`
    /// writes one that runs this keychainctl on this keychain, rewrites its own file, and
    /// leaves a file it did not write alone.
    @Test func installUnitWritesASystemdUserUnit() throws {
        let member = try SyncMember("unit")
        #expect(try member.run("list-keychains").status == 0)
        let installed = try member.run("sync", "run", "--install-unit")
        #expect(installed.status == 0, "\(installed.errors)")
        let unit = member.home.appendingPathComponent("config/systemd/user/keychain-sync-login.service")
        let text = try String(contentsOf: unit, encoding: .utf8)
        let database = member.keychainFolder.appendingPathComponent("login.keychain-db").path
        #expect(text.contains("ExecStart=\(member.program.executable.resolvingSymlinksInPath().path) sync run --keychain \(database)\n"))
        #expect(text.contains("Restart=on-failure"))
        #expect(installed.output.contains("systemctl --user enable --now keychain-sync-login.service"))
        #expect(try member.run("sync", "run", "--install-unit").status == 0)

        try Data("[Service]\nExecStart=/bin/true\n".utf8).write(to: unit)
        let refused = try member.run("sync", "run", "--install-unit")
        #expect(refused.status == 1)
        #expect(refused.errors.contains("was not written by keychainctl"))
        #expect(try String(contentsOf: unit, encoding: .utf8) == "[Service]\nExecStart=/bin/true\n")
    }

    /// Requirement "bad input gets an error with a clear message": sync commands on a keychain
    /// that is in no group, a code that is not one, and a server that is not there.
    @Test func syncCommandsExplainWhatIsWrong() throws {
        let member = try SyncMember("lonely")
        let status = try member.run("sync", "status")
        #expect(status.status == 1)
        #expect(status.errors.contains("not in a sync group"))
        let code = try member.run("sync", "approve", "not-a-code")
        #expect(code.status == 2)
        #expect(code.errors.contains("is not a join code"))
        let unreachable = try member.run("sync", "setup", "--server", "postgres://nobody:hunter2-secret@127.0.0.1:1/keychain?sslmode=disable")
        #expect(unreachable.status == 1)
        #expect(unreachable.errors.contains("unreachable"))
        #expect(!unreachable.errors.contains("hunter2-secret"))
        let missing = try member.run("sync", "setup")
        #expect(missing.status == 2)
        #expect(missing.errors.contains("KEYCHAIN_SYNC_SERVER"))
    }
}
