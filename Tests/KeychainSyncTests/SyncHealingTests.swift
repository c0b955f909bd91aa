import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A server that loses records, rolled back by a restored backup or with rows dropped by
/// whoever holds its database: the members notice at their next pass and heal it (they send
/// again what it lost, from their copies of the sealed records, and read again what they
/// skipped), so no member, nor one that joins later, keeps an old secret or gets a deleted
/// item back. Real PostgreSQL, keychainctl processes, one pass at a time (`sync run --once`).
@Suite("Sync heals a server that lost records", .serialized)
struct SyncHealingTests {
    /// Requirement "a database restored from a backup is detected and healed": after a backup
    /// is taken, b joins, a updates, deletes and adds items and b adds one; the backup is
    /// restored (pg_dump then a fresh database filled from it: the rows, the roster that
    /// admitted b and the record sequence go back), and a adds an item, which takes a sequence
    /// number b has already read past. After one pass of a then b, both hold the latest of
    /// everything and the deleted item stays deleted; a member that joins afterwards (its
    /// approval needs the roster the backup lacked) gets the same, not the backup's.
    @Test func restoredBackupIsHealed() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, late) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("late"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [])
        try a.store(service: "kept", account: "x", password: "kept-secret")
        try a.store(service: "changed", account: "x", password: "old-secret")
        try a.store(service: "deleted", account: "x", password: "doomed-secret")
        try syncOnce(a)
        let backup = try server.dump()
        try admit(b, server: server.tcpAddress(), approver: a)
        try syncOnce(b)

        try a.store(service: "changed", account: "x", password: "new-secret", update: true)
        try a.delete(service: "deleted", account: "x")
        try a.store(service: "added", account: "x", password: "added-secret")
        try syncOnce(a)
        try b.store(service: "from-b", account: "x", password: "b-secret")
        try syncOnce(b, a)
        let before = try maxSequence(server)

        try server.restore(backup)
        #expect(try maxSequence(server) < before)
        try a.store(service: "after-restore", account: "x", password: "after-secret")
        try syncOnce(a, b)

        let expected: [String: String?] = [
            "kept": "kept-secret", "changed": "new-secret", "deleted": nil, "added": "added-secret",
            "from-b": "b-secret", "after-restore": "after-secret",
        ]
        for member in [a, b] { try expectHolds(member, expected) }
        let status = try a.run("sync", "status", "--offline").output
        #expect(status.contains("last healing:") && status.contains("sent them again"), "\(status)")
        #expect(status.contains("record numbers went back"), "\(status)")
        #expect(status.contains("the server had lost 1 membership change; sent them again"), "\(status)")
        #expect(try b.run("sync", "status", "--offline").output.contains("read them again"))

        try admit(late, server: server.tcpAddress(), approver: a)
        try syncOnce(late)
        try expectHolds(late, expected)
    }

    /// Requirement "a server that lost the whole group is healed": after the members synced,
    /// whoever holds the database deletes the group (its rosters, key wraps and records go
    /// with it), and later the database is restored from a backup taken before `sync setup`
    /// (no sync table at all; the owner makes the tables again, as the agent's failure says).
    /// Each time, the first member to pass makes the group again from the first roster it
    /// pinned, then sends the later rosters with their key wraps and its copies of the records:
    /// after one pass of
    /// each, both hold the latest of everything, the deleted item stays deleted, and a member
    /// that joins afterwards gets the same. On the old code every pass failed ("It is not on
    /// the sync server", then a missing table) for ever, and nobody could join.
    @Test func serverThatLostTheGroupIsHealed() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let beforeSetup = try server.dump()
        let (a, b, late) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("late"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "kept", account: "x", password: "kept-secret")
        try a.store(service: "changed", account: "x", password: "old-secret")
        try a.store(service: "deleted", account: "x", password: "doomed-secret")
        try syncOnce(a, b)
        try a.store(service: "changed", account: "x", password: "new-secret", update: true)
        #expect(try a.delete(service: "deleted", account: "x"))
        try b.store(service: "from-b", account: "x", password: "b-secret")
        try syncOnce(a, b, a)
        let expected: [String: String?] = [
            "kept": "kept-secret", "changed": "new-secret", "deleted": nil, "from-b": "b-secret",
        ]
        for member in [a, b] { try expectHolds(member, expected) }

        #expect(try server.psql("DELETE FROM keychain_sync_groups RETURNING 1") == "1\n")
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_rosters") == "0\n")
        try syncOnce(b, a)
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_groups") == "1\n")
        #expect(try server.psql("SELECT max(epoch) FROM keychain_sync_rosters") == "1\n")
        for member in [a, b] { try expectHolds(member, expected) }

        // A backup from before the tables were made: an agent does not make them (it could
        // race a restore in progress); it says who can, and the owner does.
        try server.restore(beforeSetup)
        #expect(try server.psql("SELECT to_regclass('keychain_sync_groups') IS NULL") == "t\n")
        try a.store(service: "after-restore", account: "x", password: "after-secret")
        let refused = try a.run("sync", "run", "--once")
        #expect(refused.status != 0)
        #expect(refused.errors.contains("has no sync tables") && refused.errors.contains("sync setup --server-only"),
                "\(refused.errors)")
        #expect(try server.psql("SELECT to_regclass('keychain_sync_groups') IS NULL") == "t\n")
        let owner = try SyncMember("owner")
        let migrate = try owner.run("sync", "setup", "--server", server.tcpAddress(), "--server-only")
        #expect(migrate.status == 0, "\(migrate.errors)")
        try syncOnce(a, b)
        var after = expected
        after["after-restore"] = "after-secret"
        for member in [a, b] { try expectHolds(member, after) }
        #expect(try b.run("sync", "status", "--offline").output.contains("last healing:"))

        try admit(late, server: server.tcpAddress(), approver: a)
        try syncOnce(late)
        try expectHolds(late, after)
    }

    /// Requirement "a member back from a long absence does not take a lost group for
    /// deletions": b's last pass is 31 days old (longer than deletion markers are kept, so
    /// that it deletes the items the server no longer has), and meanwhile the group was
    /// deleted from the server. b makes the group again and sends its copies; it keeps every
    /// item, as does a, and a member that joins afterwards gets them. Taking the empty server
    /// at its word, b deleted every item it held.
    @Test func longAbsentMemberKeepsItsItemsWhenTheGroupWasLost() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, late) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("late"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "from-a", account: "x", password: "a-secret")
        try b.store(service: "from-b", account: "x", password: "b-secret")
        try syncOnce(a, b, a)
        let expected: [String: String?] = ["from-a": "a-secret", "from-b": "b-secret"]
        for member in [a, b] { try expectHolds(member, expected) }

        try b.ageSyncState(key: "lastSync", byMilliseconds: 31 * 86_400_000)
        #expect(try server.psql("DELETE FROM keychain_sync_groups RETURNING 1") == "1\n")
        try syncOnce(b, a)
        for member in [a, b] { try expectHolds(member, expected) }
        try admit(late, server: server.tcpAddress(), approver: a)
        try syncOnce(late)
        try expectHolds(late, expected)
    }

    /// Requirement "a roster the server lost below its newest comes back": whoever holds the
    /// database deletes the roster of epoch 1 (and with it its key wraps), keeping epoch 2. At
    /// its next pass a member sends it again, so a machine that joins afterwards can check
    /// the whole chain, and gets the group's items. Before, members compared only the rosters
    /// the server still held, and a joiner rejected epoch 2 as not following the genesis and
    /// never became a member.
    @Test func rosterLostBelowTheNewestIsSentAgain() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c, late) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"), try SyncMember("late"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        try a.store(service: "from-a", account: "x", password: "a-secret")
        try syncOnce(a, b, c)
        #expect(try server.psql("DELETE FROM keychain_sync_rosters WHERE epoch = 1 RETURNING 1") == "1\n")
        try syncOnce(b)
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_rosters WHERE epoch = 1") == "1\n")

        try admit(late, server: server.tcpAddress(), approver: a)
        try syncOnce(late)
        try expectHolds(late, ["from-a": "a-secret"])
    }

    /// Requirement "a key wrap the server lost comes back": a removes c (a new group key,
    /// wrapped to a and b) and writes under it; before b reads the removal, whoever holds the
    /// database deletes b's wrap of the new key, keeping the roster. a's next check wraps the
    /// key again for b, and b reads what a wrote. Before, b took the roster, found no key for
    /// it, and waited for ever on a's record.
    @Test func lostKeyWrapIsWrappedAgain() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        try syncOnce(a, b, c)
        #expect(try a.run("sync", "remove", "c").status == 0)
        try a.store(service: "after-removal", account: "x", password: "under-the-new-key")
        try syncOnce(a)
        let bHex = try b.deviceID().hex
        #expect(try server.psql("DELETE FROM keychain_sync_key_wraps WHERE epoch = 3 AND device = '\\x\(bHex)' RETURNING 1") == "1\n")

        try syncOnce(a)
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_key_wraps WHERE epoch = 3 AND device = '\\x\(bHex)'") == "1\n")
        #expect(try a.run("sync", "status", "--offline").output.contains("the server had lost the group's keys of 1 member"))
        try syncOnce(b)
        try expectHolds(b, ["after-removal": "under-the-new-key"])
        #expect(try b.run("sync", "status", "--offline").output.contains("key epoch: 3"))
    }

    /// Requirement "a membership change the server lost comes back with its keys": a removes
    /// c (a new roster and a new group key, wrapped to a and b), then writes under the new key;
    /// the server is restored from a backup taken before the removal, before b read any of it.
    /// a sends the roster again, and with it the new key wrapped again to each remaining
    /// member: b takes both and reads what a wrote. Without the wraps, b held the new roster
    /// but not its key, and waited for ever on a's record.
    @Test func lostRemovalIsSentAgainWithItsKeyWraps() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        try syncOnce(a, b, c)
        let backup = try server.dump()
        #expect(try a.run("sync", "remove", "c").status == 0)
        try a.store(service: "after-removal", account: "x", password: "under-the-new-key")
        try syncOnce(a)

        try server.restore(backup)
        #expect(try server.psql("SELECT max(epoch) FROM keychain_sync_rosters") == "2\n")
        try syncOnce(a)
        #expect(try server.psql("SELECT max(epoch) FROM keychain_sync_rosters") == "3\n")
        // Wrapped again to the members of the removal's roster only: never to c.
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_key_wraps WHERE epoch = 3") == "2\n")
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_key_wraps WHERE epoch = 3 AND device = '\\x\(try c.deviceID().hex)'") == "0\n")
        try syncOnce(b)
        try expectHolds(b, ["after-removal": "under-the-new-key"])
        #expect(try b.run("sync", "status", "--offline").output.contains("key epoch: 3"))
        let passC = try c.run("sync", "run", "--once")
        #expect(passC.status != 0 && passC.errors.contains("removed from its sync group"), "\(passC.errors)")
        #expect(try c.password(service: "after-removal", account: "x") == nil)
    }

    /// Requirement "a member approved just before a restore gets the group's keys": late asks
    /// to join without waiting (its first pass finishes the join) and a approves it; then the
    /// server is restored from a backup taken before the request, losing the approval and the
    /// key wraps before late read them. a's next pass sends the approval again with the
    /// group's keys wrapped again to each member: late's first pass makes it a member that
    /// reads and writes. Without the wraps, late held the roster that lists it and no key.
    @Test func approvalLostBeforeTheJoinerReadItIsSentAgainWithItsKeys() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, late) = (try SyncMember("a"), try SyncMember("late"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [])
        try a.store(service: "from-a", account: "x", password: "a-secret")
        try syncOnce(a)
        let backup = try server.dump()
        let join = try late.run("sync", "join", "--server", server.tcpAddress(), "--name", "late", "--timeout", "0")
        #expect(join.status == 0, "\(join.errors)")
        let code = (join.output + "\n" + join.errors).split(separator: "\n").first { $0.contains("sync approve ") }
            .flatMap { $0.split(separator: " ").last.map(String.init) }
        let approve = try a.run("sync", "approve", try #require(code))
        #expect(approve.status == 0, "\(approve.errors)")

        try server.restore(backup)
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_key_wraps") == "0\n")
        try syncOnce(a, late)
        try expectHolds(late, ["from-a": "a-secret"])
        try late.store(service: "from-late", account: "x", password: "late-secret")
        try syncOnce(late, a)
        try expectHolds(a, ["from-late": "late-secret"])
    }

    /// Requirement "a dropped tombstone is detected and healed": a deletes an item, and its
    /// tombstone is deleted from the server before b read it. On the old code b kept the item
    /// for ever; now a sends the tombstone again and b deletes it. Further passes change
    /// nothing (no flapping, nothing sent again).
    @Test func droppedTombstoneIsHealed() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "gone", account: "x", password: "gone-secret")
        try a.store(service: "kept", account: "x", password: "kept-secret")
        try syncOnce(a, b)
        #expect(try b.password(service: "gone", account: "x") == "gone-secret")

        try a.delete(service: "gone", account: "x")
        try syncOnce(a)
        #expect(try server.psql("DELETE FROM keychain_sync_records WHERE tombstone RETURNING 1").contains("1"))
        try syncOnce(a, b)
        try expectHolds(b, ["gone": nil, "kept": "kept-secret"])
        #expect(try a.run("sync", "status", "--offline").output.contains("the server had lost 1 record; sent them again"))

        let rows = try server.psql("SELECT count(*) FROM keychain_sync_records")
        for member in [b, a, b] {
            let again = try member.run("sync", "run", "--once")
            #expect(again.status == 0)
            #expect(!again.errors.contains("sent them again"), "\(again.errors)")
        }
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_records") == rows)
        try expectHolds(b, ["gone": nil, "kept": "kept-secret"])
    }

    /// Requirement "a dropped record is detected and healed": a record deleted from the server
    /// before b read it reaches b once a has passed; so does one dropped after both read it,
    /// for a member that joins later.
    @Test func droppedRecordIsHealed() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, late) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("late"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "read-by-all", account: "x", password: "everyone-secret")
        try syncOnce(a, b)
        try a.store(service: "dropped", account: "x", password: "dropped-secret")
        try syncOnce(a)
        #expect(try server.psql("DELETE FROM keychain_sync_records RETURNING 1").split(separator: "\n").count == 2)
        // b, which never saw the dropped record, has nothing to say about it.
        try syncOnce(b, a, b)
        try expectHolds(b, ["read-by-all": "everyone-secret", "dropped": "dropped-secret"])
        try admit(late, server: server.tcpAddress(), approver: a)
        try syncOnce(late)
        try expectHolds(late, ["read-by-all": "everyone-secret", "dropped": "dropped-secret"])
    }

    private func maxSequence(_ server: PostgresTestServer) throws -> Int {
        let text = try server.psql("SELECT max(sequence) FROM keychain_sync_records").trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = Int(text) else { throw SyncTestFailure("no sequence: \(text)") }
        return value
    }

    /// Requirement "expired tombstones do not make the comparison flap": a deletion marker
    /// past the retention, which the server collected, is left out of the comparison by
    /// every member that still knows it: nothing is sent again, and the server stays without it.
    @Test func collectedTombstonesAreNotSentAgain() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "old-deletion", account: "x", password: "gone-long-ago")
        try a.store(service: "kept", account: "x", password: "kept-secret")
        try syncOnce(a, b)
        try a.delete(service: "old-deletion", account: "x")
        try syncOnce(a, b)
        // Forty days pass for the deletion: its version's time (the first 8 bytes) moves back
        // in both members' states, and the server collects its marker.
        let fortyDaysAgo = UInt64(Date().timeIntervalSince1970 * 1000) - 40 * 86_400_000
        let time = String(format: "%016llx", fortyDaysAgo)
        for member in [a, b] {
            try member.editSyncState("""
                UPDATE known SET version = X'\(time)' || substr(version, 9)
                WHERE item_id IN (SELECT item_id FROM record_copy WHERE tombstone);
                UPDATE record_copy SET version = X'\(time)' || substr(version, 9) WHERE tombstone;
                """)
        }
        #expect(try server.psql("DELETE FROM keychain_sync_records WHERE tombstone RETURNING 1").contains("1"))
        for member in [a, b, a] {
            let again = try member.run("sync", "run", "--once")
            #expect(again.status == 0)
            #expect(!again.errors.contains("sent them again") && !again.errors.contains("cannot heal"), "\(again.errors)")
        }
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_records WHERE tombstone") == "0\n")
        try expectHolds(b, ["old-deletion": nil, "kept": "kept-secret"])
    }

    /// A member whose state was kept before it kept copies of records takes them from the
    /// server once, so that it too can send again what the server loses later: here it is the
    /// only member left to do so, and a member that joins afterwards gets the item from it.
    @Test func copiesMissingFromAnOlderStateAreFilledOnce() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, late) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("late"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "only-b-keeps", account: "x", password: "kept-secret")
        try syncOnce(a, b)
        // b's state as it was before copies were kept.
        try b.editSyncState("DELETE FROM record_copy; DELETE FROM progress WHERE key = 'copiesFilled'")
        try syncOnce(b)
        #expect(try server.psql("DELETE FROM keychain_sync_records RETURNING 1").contains("1"))
        try syncOnce(b)
        #expect(try b.run("sync", "status", "--offline").output.contains("sent them again"))
        try admit(late, server: server.tcpAddress(), approver: b)
        try syncOnce(late)
        try expectHolds(late, ["only-b-keeps": "kept-secret"])
    }

    /// Requirement "a difference that cannot be healed does not loop": a record altered on the
    /// server fails its checks on b at every read. b's first pass reads it again, rejects it
    /// and reports the difference; later passes leave it be (no reading again, no new
    /// report) until the server or b changes, and then heal what they can.
    @Test func anUnhealableDifferenceIsReportedOnce() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "altered", account: "x", password: "altered-secret")
        try syncOnce(a)
        try server.psql("UPDATE keychain_sync_records SET record = set_byte(record, length(record) / 2, get_byte(record, length(record) / 2) # 1)")

        let first = try b.run("sync", "run", "--once")
        #expect(first.status == 0)
        #expect(first.errors.contains("rejected a record"), "\(first.errors)")
        #expect(first.errors.contains("cannot heal"), "\(first.errors)")
        #expect(try b.run("sync", "status", "--offline").output.contains("could not be healed"))
        for _ in 0..<2 {
            let again = try b.run("sync", "run", "--once")
            #expect(again.status == 0)
            #expect(!again.errors.contains("rejected a record") && !again.errors.contains("cannot heal"), "\(again.errors)")
        }
        // The server changes: the difference is looked at again, and a's new item arrives.
        try a.store(service: "later", account: "x", password: "later-secret")
        try syncOnce(a, b)
        try expectHolds(b, ["altered": nil, "later": "later-secret"])
    }

    /// Requirement "a mismatch from a race converges, and is no loss": with both agents
    /// running, both members write while the other passes, so the server often holds what a
    /// member has not read yet when it checks. Everything arrives, and neither agent reports
    /// a loss, a skipped record or a difference it cannot heal.
    @Test func concurrentWritesAreNotMistakenForLosses() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.startAgent()
        try b.startAgent()
        for step in 0..<16 {
            try (step % 2 == 0 ? a : b).store(service: "item-\(step % 6)", account: "x", password: "value-\(step)", update: true)
            if step % 5 == 4 { try (step % 2 == 0 ? b : a).delete(service: "item-\(step % 6)", account: "x") }
        }
        try eventually(60, "both members hold the same items") {
            try (0..<6).allSatisfy { index in
                try a.password(service: "item-\(index)", account: "x") == b.password(service: "item-\(index)", account: "x")
            }
        }
        a.stopAgent()
        b.stopAgent()
        for member in [a, b] {
            let logs = member.agentLogs
            for report in ["had lost", "had been skipped", "went back", "cannot heal"] {
                #expect(!logs.contains(report), "\(member.name)'s agent reported \(report):\n\(logs)")
            }
        }
    }

    private func expectHolds(_ member: SyncMember, _ expected: [String: String?],
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (service, value) in expected.sorted(by: { $0.key < $1.key }) {
            let held = try member.password(service: service, account: "x")
            #expect(held == value, "\(member.name) holds \(held ?? "nothing") for \(service)", sourceLocation: sourceLocation)
        }
    }
}
