import Foundation
import Testing
import TestSupport
import TestTags
@testable import KeychainSync

/// The sync server's schema and operations against a real PostgreSQL (Debian's, started per test).
@Suite(.serialized, .tags(.slow), .enabled(if: PostgresTestServer.isInstalled, "needs PostgreSQL (Scripts/test installs it)"))
struct SyncServerStoreTests {
    typealias Fixture = SyncServerFixture

    /// Migrations are idempotent and safe when two clients run them at once: one schema
    /// version row, every table made once.
    @Test func migrateTwiceAndConcurrently() async throws {
        try await PostgresTestServer.with { postgres in
            let address = postgres.tcpAddress()
            try await Fixture.withServer(address) { first in
                try await Fixture.withServer(address) { second in
                    async let one: Void = first.migrate()
                    async let two: Void = second.migrate()
                    _ = try await (one, two)
                    try await first.migrate()
                }
            }
            #expect(try postgres.psql("SELECT string_agg(version::text, ',' ORDER BY version) FROM keychain_sync_schema") == "1,2,3\n")
            let tables = try postgres.psql(
                "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'keychain_sync_%'")
            #expect(tables == "6\n")
        }
    }

    /// A schema newer than the code is a clear error at connect and at migrate, and changes nothing.
    @Test func newerSchemaIsRefused() async throws {
        try await PostgresTestServer.with { postgres in
            let address = postgres.tcpAddress()
            try await Fixture.withServer(address) { try await $0.migrate() }
            try postgres.psql("INSERT INTO keychain_sync_schema VALUES (7)")
            await #expect(throws: SyncServerError.schemaTooNew(found: 7, known: SyncServerSchema.version)) {
                try await Fixture.withServer(address) { _ in }
            }
            #expect(try postgres.psql("SELECT count(*) FROM keychain_sync_schema") == "\(SyncServerSchema.version + 1)\n")
        }
    }

    /// Records come back byte for byte, in sequence order, page by page, with nothing
    /// skipped or repeated between pages.
    @Test func appendAndReadRecordsInPages() async throws {
        try await Fixture.withGroup { _, server, group in
            var sent: [(itemID: Data, version: Data, isTombstone: Bool, record: Data)] = []
            for index in 0..<25 {
                sent.append((Fixture.randomBytes(32), Fixture.version(UInt64(1000 + index)), index % 5 == 0,
                             Fixture.randomBytes(100 + index)))
            }
            var highest: Int64 = 0
            for batch in [sent[0..<10], sent[10..<11], sent[11...]] {
                highest = try await server.append(group, records: Array(batch))
            }
            var read: [ServerRecord] = []
            var cursor: Int64 = 0
            while true {
                let page = try await server.records(group, after: cursor, limit: 7)
                #expect(page.count <= 7)
                guard let last = page.last else { break }
                read += page
                cursor = last.sequence
            }
            #expect(read.count == sent.count)
            #expect(zip(read, read.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
            #expect(read.last?.sequence == highest, "append returns the group's highest sequence")
            for (record, original) in zip(read, sent) {
                #expect(record.itemID == original.itemID && record.version == original.version
                    && record.isTombstone == original.isTombstone && record.record == original.record)
            }
            // Another group's records stay apart.
            let other = Fixture.randomBytes(16)
            try await server.createGroup(other, genesis: Data("other".utf8))
            #expect(try await server.records(other, after: 0, limit: 100).isEmpty)
        }
    }

    /// The same (item, version) twice is stored once, the first bytes kept.
    @Test func duplicateRecordsAreIgnored() async throws {
        try await Fixture.withGroup { _, server, group in
            let item = Fixture.randomBytes(32)
            let first = try await server.append(group, records: [(item, Fixture.version(5), false, Data("first".utf8))])
            let second = try await server.append(group, records: [(item, Fixture.version(5), false, Data("second".utf8))])
            #expect(second == first)
            let records = try await server.records(group, after: 0, limit: 10)
            #expect(records.map(\.record) == [Data("first".utf8)])
        }
    }

    /// A newer version of an item deletes the older rows; an older one arriving late is not kept.
    @Test func supersededVersionsAreDeleted() async throws {
        try await Fixture.withGroup { _, server, group in
            let item = Fixture.randomBytes(32)
            let unrelated = Fixture.randomBytes(32)
            _ = try await server.append(group, records: [
                (item, Fixture.version(1), false, Data("v1".utf8)), (unrelated, Fixture.version(1), false, Data("u".utf8)),
            ])
            // Byte order, not length or time alone: the counter breaks a tie of time.
            _ = try await server.append(group, records: [(item, Fixture.version(2, counter: 1), false, Data("v2".utf8))])
            _ = try await server.append(group, records: [(item, Fixture.version(2, counter: 0), false, Data("late".utf8))])
            let records = try await server.records(group, after: 0, limit: 10)
            #expect(records.map(\.record).sorted { $0.count < $1.count } == [Data("u".utf8), Data("v2".utf8)])
        }
    }

    /// One batch holding several versions of an item keeps only the newest of them, and only
    /// when it is newer than the stored one: the same outcome as storing the records one by one.
    @Test func batchKeepsTheNewestVersionOfEachItem() async throws {
        try await Fixture.withGroup { _, server, group in
            let older = Fixture.randomBytes(32), newer = Fixture.randomBytes(32), fresh = Fixture.randomBytes(32)
            _ = try await server.append(group, records: [
                (older, Fixture.version(10), false, Data("older v10".utf8)), (newer, Fixture.version(10), false, Data("newer v10".utf8)),
            ])
            let highest = try await server.append(group, records: [
                // Older than the stored version: not kept, whatever the batch holds besides.
                (older, Fixture.version(5), false, Data("older v5".utf8)),
                (older, Fixture.version(7), true, Data("older v7".utf8)),
                // Newer than the stored version, twice, out of order: the newest replaces it.
                (newer, Fixture.version(12), false, Data("newer v12".utf8)),
                (newer, Fixture.version(11), false, Data("newer v11".utf8)),
                (fresh, Fixture.version(3), false, Data("fresh v3".utf8)),
                (fresh, Fixture.version(3), false, Data("fresh v3 again".utf8)),
            ])
            let records = try await server.records(group, after: 0, limit: 100)
            #expect(Set(records.map(\.record)) == [Data("older v10".utf8), Data("newer v12".utf8), Data("fresh v3".utf8)])
            #expect(records.count == 3)
            #expect(records.last?.sequence == highest)
            // An empty batch stores nothing and still answers with the highest sequence.
            #expect(try await server.append(group, records: []) == highest)
        }
    }

    /// A batch of the agent's size and beyond is stored whole, in one call, and read back
    /// byte for byte in the batch's order.
    @Test func largeBatchIsStoredWhole() async throws {
        try await Fixture.withGroup { _, server, group in
            let sent = (0..<5_000).map { index in
                (itemID: Fixture.randomBytes(32), version: Fixture.version(UInt64(index)), isTombstone: index % 7 == 0,
                 record: Fixture.randomBytes(200 + index % 300))
            }
            _ = try await server.append(group, records: sent)
            var read: [ServerRecord] = []
            while true {
                let page = try await server.records(group, after: read.last?.sequence ?? 0, limit: 2_000)
                guard !page.isEmpty else { break }
                read += page
            }
            #expect(read.count == sent.count)
            #expect(zip(read, sent).allSatisfy {
                $0.itemID == $1.itemID && $0.version == $1.version && $0.isTombstone == $1.isTombstone && $0.record == $1.record
            })
        }
    }

    /// Sequence order is commit order: two writers on two connections append concurrently
    /// while a reader follows with a cursor; every record shows up above the reader's cursor,
    /// so the reader, which never goes back, sees every one of them.
    @Test func readerNeverSkipsARecordUnderConcurrentAppends() async throws {
        try await PostgresTestServer.with { postgres in
            let address = postgres.tcpAddress()
            let group = Fixture.randomBytes(16)
            try await Fixture.withServer(address) { server in
                try await server.migrate()
                try await server.createGroup(group, genesis: Data("g".utf8))
            }
            let perWriter = 60
            let writersDone = YieldCounter()
            let seen = try await withThrowingTaskGroup(of: Set<Data>.self) { tasks in
                for writer in 0..<2 {
                    tasks.addTask {
                        try await Fixture.withServer(address) { server in
                            for index in 0..<perWriter {
                                _ = try await server.append(group, records: [
                                    (Data([UInt8(writer), UInt8(index)]), Fixture.version(1), false, Data([UInt8(index)])),
                                ])
                            }
                        }
                        await writersDone.add()
                        return []
                    }
                }
                tasks.addTask {
                    try await Fixture.withServer(address) { reader in
                        var cursor: Int64 = 0
                        var items: Set<Data> = []
                        // Reads until every record is seen, or until a read that began after both
                        // writers finished finds nothing new: what is missing then was skipped.
                        while items.count < 2 * perWriter {
                            let finished = await writersDone.count == 2
                            let page = try await reader.records(group, after: cursor, limit: 5)
                            for record in page {
                                #expect(record.sequence > cursor)
                                cursor = record.sequence
                                items.insert(record.itemID)
                            }
                            if finished && page.isEmpty { break }
                        }
                        return items
                    }
                }
                var all: Set<Data> = []
                for try await items in tasks { all.formUnion(items) }
                return all
            }
            #expect(seen.count == 2 * perWriter, "the reader missed records committed after it passed their sequence")
        }
    }

    /// Unknown groups are `.notFound`; group ids the channel names cannot hold are refused.
    @Test func unknownGroupIsNotFound() async throws {
        try await Fixture.withGroup { _, server, _ in
            let unknown = Fixture.randomBytes(16)
            await #expect(throws: SyncServerError.notFound) {
                _ = try await server.append(unknown, records: [(Data([1]), Fixture.version(1), false, Data([1]))])
            }
            await #expect(throws: SyncServerError.notFound) { _ = try await server.rosters(unknown, after: -1) }
            await #expect(throws: SyncServerError.notFound) {
                try await server.postJoinRequest(unknown, device: Data([1]), request: Data([2]))
            }
            await #expect(throws: SyncServerError.invalidArgument("a group id must be 1 to 24 bytes")) {
                _ = try await server.records(Fixture.randomBytes(25), after: 0, limit: 1)
            }
            await #expect(throws: SyncServerError.invalidArgument("the limit must be from 1 to 10000")) {
                _ = try await server.records(unknown, after: 0, limit: 0)
            }
        }
    }

    /// Groups, rosters with their key wraps (all or nothing), and join requests round-trip.
    @Test func groupsRostersWrapsAndJoinRequests() async throws {
        try await Fixture.withGroup { postgres, server, group in
            #expect(try await server.groups() == [group])
            await #expect(throws: SyncServerError.alreadyExists) { try await server.createGroup(group, genesis: Data([9])) }

            let rosters = try await server.rosters(group, after: -1)
            #expect(rosters.map(\.epoch) == [0] && rosters.first?.roster == Data("genesis roster".utf8))
            let deviceA = Fixture.randomBytes(16), deviceB = Fixture.randomBytes(16)
            try await server.publishRoster(group, epoch: 1, roster: Data("r1".utf8),
                                           wraps: [(deviceA, Data("wA1".utf8)), (deviceB, Data("wB1".utf8))])
            // An epoch that exists: refused, and none of its wraps stored.
            await #expect(throws: SyncServerError.alreadyExists) {
                try await server.publishRoster(group, epoch: 1, roster: Data("fork".utf8), wraps: [(deviceA, Data("x".utf8))])
            }
            await #expect(throws: SyncServerError.alreadyExists) {
                try await server.publishRoster(group, epoch: 2, roster: Data("r2".utf8),
                                               wraps: [(deviceA, Data("wA2".utf8)), (deviceA, Data("dup".utf8))])
            }
            #expect(try postgres.psql("SELECT count(*) FROM keychain_sync_rosters WHERE epoch = 2") == "0\n")
            try await server.publishRoster(group, epoch: 2, roster: Data("r2".utf8), wraps: [(deviceA, Data("wA2".utf8))])
            #expect(try await server.rosters(group, after: 0).map(\.roster) == [Data("r1".utf8), Data("r2".utf8)])
            let wraps = try await server.keyWraps(group, device: deviceA)
            #expect(wraps.map(\.epoch) == [1, 2] && wraps.map(\.wrap) == [Data("wA1".utf8), Data("wA2".utf8)])
            #expect(try await server.keyWraps(group, device: deviceB).map(\.wrap) == [Data("wB1".utf8)])

            try await server.postJoinRequest(group, device: deviceB, request: Data("old".utf8))
            try await server.postJoinRequest(group, device: deviceB, request: Data("req".utf8))
            let requests = try await server.joinRequests(group)
            #expect(requests.map(\.device) == [deviceB] && requests.map(\.request) == [Data("req".utf8)])
            try await server.removeJoinRequest(group, device: deviceB)
            try await server.removeJoinRequest(group, device: deviceB)
            #expect(try await server.joinRequests(group).isEmpty)
        }
    }

    /// Tombstones older than the retention are collected; recent ones and live records stay.
    @Test func collectTombstonesRemovesOnlyOldTombstones() async throws {
        try await Fixture.withGroup { postgres, server, group in
            let oldTombstone = Fixture.randomBytes(32), newTombstone = Fixture.randomBytes(32), oldLive = Fixture.randomBytes(32)
            _ = try await server.append(group, records: [
                (oldTombstone, Fixture.version(1), true, Data([1])), (newTombstone, Fixture.version(1), true, Data([2])),
                (oldLive, Fixture.version(1), false, Data([3])),
            ])
            let hex = { (data: Data) in data.map { String(format: "%02x", $0) }.joined() }
            try postgres.psql("""
                UPDATE keychain_sync_records SET stored_at = now() - interval '40 days'
                WHERE item_id IN ('\\x\(hex(oldTombstone))'::bytea, '\\x\(hex(oldLive))'::bytea)
                """)
            #expect(try await server.collectTombstones(group, olderThan: .seconds(30 * 86_400)) == 1)
            let left = try await server.records(group, after: 0, limit: 10).map(\.itemID)
            #expect(Set(left) == [newTombstone, oldLive])
            #expect(try await server.collectTombstones(group, olderThan: .seconds(30 * 86_400)) == 0)
        }
    }

    /// The server sees ciphertext, ids and versions only: the dump holds the bytes given, and
    /// the tables have exactly the documented columns (none for a name or an attribute).
    @Test func serverHoldsOnlyTheOpaqueBytesGiven() async throws {
        try await Fixture.withGroup { postgres, server, group in
            let record = Fixture.randomBytes(64)
            _ = try await server.append(group, records: [(Fixture.randomBytes(32), Fixture.version(1), false, record)])
            #expect(try postgres.dump().contains(record.map { String(format: "%02x", $0) }.joined()))
            let columns = try postgres.psql("""
                SELECT string_agg(table_name || '.' || column_name, ' ' ORDER BY table_name, ordinal_position)
                FROM information_schema.columns WHERE table_name LIKE 'keychain_sync_%'
                """)
            #expect(columns == """
                keychain_sync_groups.group_id keychain_sync_groups.genesis keychain_sync_groups.created_at \
                keychain_sync_join_requests.group_id keychain_sync_join_requests.device keychain_sync_join_requests.request \
                keychain_sync_join_requests.created_at keychain_sync_key_wraps.group_id keychain_sync_key_wraps.epoch \
                keychain_sync_key_wraps.device keychain_sync_key_wraps.wrap keychain_sync_records.sequence \
                keychain_sync_records.group_id keychain_sync_records.item_id keychain_sync_records.version \
                keychain_sync_records.tombstone keychain_sync_records.record keychain_sync_records.stored_at \
                keychain_sync_records.writer \
                keychain_sync_rosters.group_id keychain_sync_rosters.epoch keychain_sync_rosters.roster \
                keychain_sync_schema.version

                """)
        }
    }
}
