import Foundation
import Testing
import TestSupport
import TestTags
@testable import KeychainSync

/// Least privilege on the sync server, against a real PostgreSQL: a member's database role
/// (a login role in `keychain_sync_member`) may read and append, and delete only through the
/// schema's narrow functions; the database refuses every other DELETE, UPDATE or TRUNCATE.
@Suite(.serialized, .tags(.slow), .enabled(if: PostgresTestServer.isInstalled, "needs PostgreSQL (Scripts/test installs it)"))
struct SyncServerPrivilegeTests {
    typealias Fixture = SyncServerFixture

    /// A login role in keychain_sync_member, as docs/Sync.md tells the database's owner to
    /// make one per machine; its TCP address.
    static func memberRole(_ name: String, on postgres: PostgresTestServer) throws -> String {
        let password = Fixture.randomBytes(12).map { String(format: "%02x", $0) }.joined()
        try postgres.psql("CREATE ROLE \(name) LOGIN PASSWORD '\(password)' IN ROLE keychain_sync_member")
        return "postgres://\(name):\(password)@localhost:\(postgres.port)/\(PostgresTestServer.database)?sslmode=disable"
    }

    /// A fresh server migrated by its owner, and a group a member role made, with a roster of
    /// epoch 1 and its key wraps, a join request and records.
    static func withMemberGroup<T: Sendable>(
        _ body: (PostgresTestServer, SyncServer, Data) async throws -> T
    ) async throws -> T {
        try await PostgresTestServer.with { postgres in
            try await Fixture.withServer(postgres.tcpAddress()) { try await $0.migrate() }
            let alice = try memberRole("alice", on: postgres)
            return try await Fixture.withServer(alice) { server in
                let group = Fixture.randomBytes(16)
                try await server.createGroup(group, genesis: Data("genesis".utf8))
                try await server.publishRoster(group, epoch: 1, roster: Data("roster 1".utf8),
                                               wraps: [(Data("alice".utf8), Data("wrap a1".utf8)), (Data("bob".utf8), Data("wrap b1".utf8))])
                try await server.postJoinRequest(group, device: Data("carol".utf8), request: Data("carol asks".utf8))
                _ = try await server.append(group, records: [
                    (Fixture.randomBytes(32), Fixture.version(1), false, Data("record".utf8)),
                    (Fixture.randomBytes(32), Fixture.version(1), true, Data("tombstone".utf8)),
                ])
                return try await body(postgres, server, group)
            }
        }
    }

    /// Requirement "a member's role may append but never delete or rewrite rows": every
    /// DELETE, UPDATE and TRUNCATE of the sync tables is refused by the database
    /// (permission denied), and an INSERT that sets the server's own columns (sequence,
    /// storage time) too; nothing changes.
    @Test func memberRoleCannotDeleteOrRewriteRows() async throws {
        try await Self.withMemberGroup { postgres, _, _ in
            // Every row of every table, and where the records' sequence stands.
            let contents = """
                SELECT (SELECT string_agg(t::text, ';' ORDER BY t::text) FROM keychain_sync_groups AS t),
                       (SELECT string_agg(t::text, ';' ORDER BY t::text) FROM keychain_sync_rosters AS t),
                       (SELECT string_agg(t::text, ';' ORDER BY t::text) FROM keychain_sync_key_wraps AS t),
                       (SELECT string_agg(t::text, ';' ORDER BY t::text) FROM keychain_sync_join_requests AS t),
                       (SELECT string_agg(t::text, ';' ORDER BY t::text) FROM keychain_sync_records AS t),
                       (SELECT string_agg(t::text, ';' ORDER BY t::text) FROM keychain_sync_schema AS t),
                       (SELECT last_value FROM keychain_sync_records_sequence_seq)
                """
            let before = try postgres.psql(contents)
            #expect(before.contains("726f737465722031"), "the roster of epoch 1 is there to be protected")
            let statements = [
                "DELETE FROM keychain_sync_rosters", "DELETE FROM keychain_sync_key_wraps", "DELETE FROM keychain_sync_records",
                "DELETE FROM keychain_sync_join_requests", "DELETE FROM keychain_sync_groups", "DELETE FROM keychain_sync_schema",
                "UPDATE keychain_sync_rosters SET roster = 'x'", "UPDATE keychain_sync_key_wraps SET wrap = 'x'",
                "UPDATE keychain_sync_records SET record = 'x'", "UPDATE keychain_sync_join_requests SET request = 'x'",
                "UPDATE keychain_sync_groups SET genesis = 'x'", "UPDATE keychain_sync_schema SET version = 1",
                "TRUNCATE keychain_sync_records", "TRUNCATE keychain_sync_rosters CASCADE",
                // The server's columns: a sequence far ahead would hide every later record
                // from readers' cursors, an old storage time would get a tombstone collected.
                """
                INSERT INTO keychain_sync_records (sequence, group_id, item_id, version, tombstone, record)
                SELECT 1000000, group_id, 'i', 'v', false, 'r' FROM keychain_sync_groups
                """,
                """
                INSERT INTO keychain_sync_records (group_id, item_id, version, tombstone, record, stored_at)
                SELECT group_id, 'i', 'v', true, 'r', now() - interval '1 year' FROM keychain_sync_groups
                """,
                "SELECT setval('keychain_sync_records_sequence_seq', 1000000)",
                // Another role as a row's writer would let its appends supersede that role's rows.
                """
                INSERT INTO keychain_sync_records (group_id, item_id, version, tombstone, record, writer)
                SELECT group_id, 'i', 'v', false, 'r', 'bob' FROM keychain_sync_groups
                """,
                "SET ROLE \(PostgresTestServer.user)",
            ]
            for statement in statements {
                do {
                    try postgres.psql(statement, user: "alice")
                    Issue.record("went through: \(statement)")
                } catch {
                    #expect("\(error)".contains("permission denied"), "\(statement): \(error)")
                }
            }
            #expect(try postgres.psql(contents) == before)
        }
    }

    /// Requirement "a member's role can still do what sync does": append (older versions of
    /// an item superseded, an older one arriving late not kept), read, post and replace a
    /// join request, remove one, and collect tombstones older than the retention, never
    /// younger ones, whatever age it asks for.
    @Test func memberRoleCanDoWhatSyncDoes() async throws {
        try await Self.withMemberGroup { postgres, server, group in
            #expect(try await !server.connectedRoleCanRewriteRows())
            let item = Fixture.randomBytes(32)
            _ = try await server.append(group, records: [(item, Fixture.version(5), false, Data("v5".utf8))])
            _ = try await server.append(group, records: [(item, Fixture.version(9), false, Data("v9".utf8))])
            _ = try await server.append(group, records: [(item, Fixture.version(7), false, Data("v7".utf8))])
            #expect(try postgres.psql("""
                SELECT string_agg(convert_from(record, 'UTF8'), ',') FROM keychain_sync_records WHERE item_id = '\\x\(hex(item))'
                """) == "v9\n")

            try await server.postJoinRequest(group, device: Data("carol".utf8), request: Data("carol again".utf8))
            #expect(try await server.joinRequests(group).map(\.request) == [Data("carol again".utf8)])
            try await server.removeJoinRequest(group, device: Data("carol".utf8))
            #expect(try await server.joinRequests(group).isEmpty)

            let old = Fixture.randomBytes(32), recent = Fixture.randomBytes(32)
            _ = try await server.append(group, records: [(old, Fixture.version(1), true, Data([1])), (recent, Fixture.version(1), true, Data([2]))])
            try postgres.psql("UPDATE keychain_sync_records SET stored_at = now() - interval '40 days' WHERE item_id = '\\x\(hex(old))'")
            try postgres.psql("UPDATE keychain_sync_records SET stored_at = now() - interval '10 days' WHERE item_id = '\\x\(hex(recent))'")
            // Asking for a shorter retention collects nothing younger than the server's own.
            #expect(try await server.collectTombstones(group, olderThan: .seconds(1)) == 1)
            let left = Set(try await server.records(group, after: 0, limit: 100).map(\.itemID))
            #expect(!left.contains(old) && left.contains(recent))
        }
    }

    /// Requirement "a member's role never makes the database delete another member's row":
    /// mallory's role appends a version of alice's item dated far ahead (any bytes, as a
    /// removed machine could). alice's row stays, and alice still appends later versions of
    /// the item, each superseding only her own older row; collecting an expired tombstone
    /// removes the item's older rows of every role. Before, mallory's append made the trigger
    /// delete alice's row, and the server then kept none of alice's later versions.
    @Test func anotherRolesNewerVersionNeitherDeletesNorHoldsBack() async throws {
        try await Self.withMemberGroup { postgres, alice, group in
            let item = Fixture.randomBytes(32)
            _ = try await alice.append(group, records: [(item, Fixture.version(5), false, Data("alice 5".utf8))])
            let mallory = try Self.memberRole("mallory", on: postgres)
            try await Fixture.withServer(mallory) { (server: SyncServer) async throws in
                _ = try await server.append(group, records: [(item, Fixture.version(1 << 62), false, Data("mallory".utf8))])
            }
            func stored() async throws -> [Data] { try await alice.records(group, after: 0, limit: 100).filter { $0.itemID == item }.map(\.record) }
            #expect(try await stored() == [Data("alice 5".utf8), Data("mallory".utf8)])
            _ = try await alice.append(group, records: [(item, Fixture.version(7), false, Data("alice 7".utf8))])
            #expect(try await stored() == [Data("mallory".utf8), Data("alice 7".utf8)])

            let bob = try Self.memberRole("bob", on: postgres)
            try await Fixture.withServer(bob) { (server: SyncServer) async throws in
                _ = try await server.append(group, records: [(item, Fixture.version(8), false, Data("bob 8".utf8))])
            }
            _ = try await alice.append(group, records: [(item, Fixture.version(9), true, Data("alice deletes".utf8))])
            #expect(try await stored() == [Data("mallory".utf8), Data("bob 8".utf8), Data("alice deletes".utf8)])
            try postgres.psql("UPDATE keychain_sync_records SET stored_at = now() - interval '40 days' WHERE tombstone")
            #expect(try await alice.collectTombstones(group, olderThan: .seconds(30 * 86_400)) == 2)
            // The tombstones (the group's first one too) and bob's row that alice's superseded
            // are gone; mallory's, dated after it, stays.
            #expect(try await stored() == [Data("mallory".utf8)])
        }
    }

    /// Requirement "a member cannot replace the newest roster": deleting the newest roster and
    /// its key wraps to publish one of its own in their place is refused by the database, and
    /// so is publishing another roster at that epoch; the real roster and wraps stay.
    @Test func replacedRosterAttackIsRefusedByTheDatabase() async throws {
        try await Self.withMemberGroup { postgres, _, group in
            let mallory = try Self.memberRole("mallory", on: postgres)
            for statement in ["DELETE FROM keychain_sync_key_wraps WHERE epoch = 1", "DELETE FROM keychain_sync_rosters WHERE epoch = 1"] {
                do {
                    try postgres.psql(statement, user: "mallory")
                    Issue.record("\(statement) went through")
                } catch {
                    #expect("\(error)".contains("permission denied"), "\(error)")
                }
            }
            try await Fixture.withServer(mallory) { (server: SyncServer) async throws in
                await #expect(throws: SyncServerError.alreadyExists) {
                    try await server.publishRoster(group, epoch: 1, roster: Data("mallory's roster".utf8),
                                                   wraps: [(Data("mallory".utf8), Data("wrap m1".utf8))])
                }
                #expect(try await server.rosters(group, after: 0).map(\.roster) == [Data("roster 1".utf8)])
                #expect(try await server.keyWraps(group, device: Data("bob".utf8)).map(\.wrap) == [Data("wrap b1".utf8)])
            }
        }
    }

    /// Requirement "an existing server migrates": tables made by the first schema, with
    /// records in them, come to the current one; the records stay, and a member role appends
    /// a newer version of a stored item, which supersedes it.
    @Test func schemaOneServerMigrates() async throws {
        try await PostgresTestServer.with { postgres in
            try postgres.psql("BEGIN; CREATE TABLE keychain_sync_schema (version integer PRIMARY KEY); "
                + SyncServerSchema.migrations[0].joined(separator: "; ") + "; INSERT INTO keychain_sync_schema VALUES (1); COMMIT")
            let item = Fixture.randomBytes(32)
            try postgres.psql("""
                INSERT INTO keychain_sync_groups (group_id, genesis) VALUES ('\\x0102', 'g');
                INSERT INTO keychain_sync_records (group_id, item_id, version, tombstone, record)
                VALUES ('\\x0102', '\\x\(hex(item))', '\\x\(hex(Fixture.version(1)))', false, 'stored under schema 1')
                """)
            try await Fixture.withServer(postgres.tcpAddress()) { owner in
                try await owner.migrate()
                #expect(try await owner.connectedRoleCanRewriteRows())
            }
            #expect(try postgres.psql("SELECT string_agg(version::text, ',' ORDER BY version) FROM keychain_sync_schema") == "1,2,3\n")
            // The rows from before are the owner's: the role that migrated.
            #expect(try postgres.psql("SELECT string_agg(writer::text, ',') FROM keychain_sync_records") == "\(PostgresTestServer.user)\n")
            let alice = try Self.memberRole("alice", on: postgres)
            try await Fixture.withServer(alice) { server in
                #expect(try await server.records(Data([1, 2]), after: 0, limit: 10).map(\.record) == [Data("stored under schema 1".utf8)])
                _ = try await server.append(Data([1, 2]), records: [(item, Fixture.version(2), false, Data("newer".utf8))])
                _ = try await server.append(Data([1, 2]), records: [(item, Fixture.version(3), false, Data("newest".utf8))])
                // alice's own older row is superseded; the owner's stays, an older version.
                #expect(try await server.records(Data([1, 2]), after: 0, limit: 10).map(\.record)
                        == [Data("stored under schema 1".utf8), Data("newest".utf8)])
                #expect(try await server.latestRecords(Data([1, 2])).records.map(\.version) == [Fixture.version(3)])
            }
        }
    }

    /// Requirement "a server not migrated yet still works": with the first schema's tables
    /// (no trigger, no functions), the client itself removes superseded versions, replaces a
    /// join request, removes one and collects tombstones, as it did before.
    @Test func schemaOneServerWorksUntilMigrated() async throws {
        try await PostgresTestServer.with { postgres in
            try postgres.psql("BEGIN; CREATE TABLE keychain_sync_schema (version integer PRIMARY KEY); "
                + SyncServerSchema.migrations[0].joined(separator: "; ") + "; INSERT INTO keychain_sync_schema VALUES (1); COMMIT")
            try await Fixture.withServer(postgres.tcpAddress()) { server in
                let group = Fixture.randomBytes(16), item = Fixture.randomBytes(32), tombstone = Fixture.randomBytes(32)
                try await server.createGroup(group, genesis: Data("g".utf8))
                _ = try await server.append(group, records: [(item, Fixture.version(1), false, Data("v1".utf8)),
                                                             (tombstone, Fixture.version(1), true, Data("t".utf8))])
                _ = try await server.append(group, records: [(item, Fixture.version(2), false, Data("v2".utf8))])
                #expect(try await server.records(group, after: 0, limit: 10).map(\.record) == [Data("t".utf8), Data("v2".utf8)])
                try await server.postJoinRequest(group, device: Data("d".utf8), request: Data("first".utf8))
                try await server.postJoinRequest(group, device: Data("d".utf8), request: Data("second".utf8))
                #expect(try await server.joinRequests(group).map(\.request) == [Data("second".utf8)])
                try await server.removeJoinRequest(group, device: Data("d".utf8))
                #expect(try await server.joinRequests(group).isEmpty)
                try postgres.psql("UPDATE keychain_sync_records SET stored_at = now() - interval '40 days' WHERE tombstone")
                #expect(try await server.collectTombstones(group, olderThan: .seconds(30 * 86_400)) == 1)
            }
            #expect(try postgres.psql("SELECT max(version) FROM keychain_sync_schema") == "1\n", "nothing migrated it")
        }
    }

    private func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
}
