import Crypto
import Foundation
import KeychainCore
import Testing
import TestSupport
import TestTags
@testable import KeychainSync

/// The summary a member checks the server against every pass, computed by PostgreSQL in SQL,
/// must equal the digest a member computes over the same latest versions, or every pass would
/// see a loss that is not there.
@Suite(.serialized, .tags(.slow), .enabled(if: PostgresTestServer.isInstalled, "needs PostgreSQL (Scripts/test installs it)"))
struct SyncServerSummaryTests {
    typealias Fixture = SyncServerFixture

    /// Requirement "expired tombstones do not make the comparison flap": the server's summary
    /// covers each item's latest version only (an older row the server still holds, as a
    /// replay would leave, does not count) and leaves out tombstones older than the cutoff but
    /// not old live records; its digest is SHA-256 over id and version in id order, computed
    /// here with swift-crypto directly, and the same as ``RecordSetDigest``'s. The full list
    /// has every item's latest row, the expired tombstone included, and the highest sequence.
    @Test func summaryIsTheMembersDigestOfLatestVersions() async throws {
        try await Fixture.withGroup { postgres, server, group in
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let cutoff = RecordSetDigest.cutoff(now: now)
            let recent = UInt64(now - 60_000)
            let longAgo = UInt64(now - 40 * 86_400_000)
            let ids = (0..<5).map { _ in Fixture.randomBytes(32) }
            let (live, tombstone, expired, oldLive, updated) = (ids[0], ids[1], ids[2], ids[3], ids[4])
            func row(_ id: Data, _ time: UInt64, tombstone: Bool = false) -> (itemID: Data, version: Data, isTombstone: Bool, record: Data) {
                (id, Fixture.version(time), tombstone, Fixture.randomBytes(40))
            }
            _ = try await server.append(group, records: [
                row(live, recent), row(tombstone, recent, tombstone: true), row(expired, longAgo, tombstone: true),
                row(oldLive, longAgo), row(updated, recent),
            ])
            _ = try await server.append(group, records: [row(updated, recent + 5)])
            // An older version of an item put back beside its newest, as a replaying server would
            // (its owner can turn the trigger that removes superseded versions off).
            try postgres.psql("""
                SET session_replication_role = replica;
                INSERT INTO keychain_sync_records (group_id, item_id, version, tombstone, record)
                VALUES (decode('\(Hex.string(group))', 'hex'), decode('\(Hex.string(updated))', 'hex'),
                        decode('\(Hex.string(Fixture.version(recent)))', 'hex'), false, '\\x00')
                """)

            let counted = [(live, recent), (tombstone, recent), (oldLive, longAgo), (updated, recent + 5)]
                .map { (itemID: $0.0, version: Fixture.version($0.1)) }
                .sorted { $0.itemID.lexicographicallyPrecedes($1.itemID) }
            let concatenated = counted.reduce(into: Data()) { $0 += $1.itemID + $1.version }
            let summary = try await server.recordSetSummary(group, tombstonesFrom: cutoff)
            #expect(summary.count == 4)
            #expect(summary.digest == Data(SHA256.hash(data: concatenated)))
            #expect(summary.digest == RecordSetDigest.digest(counted))
            #expect(summary.maxSequence == 7)

            let latest = try await server.latestRecords(group)
            #expect(latest.maxSequence == 7)
            #expect(latest.records.map(\.itemID) == ids.sorted { $0.lexicographicallyPrecedes($1) })
            #expect(latest.records.first { $0.itemID == updated }?.version == Fixture.version(recent + 5))
            #expect(latest.records.first { $0.itemID == expired }?.isTombstone == true)

            let empty = Fixture.randomBytes(16)
            try await server.createGroup(empty, genesis: Data("another roster".utf8))
            let none = try await server.recordSetSummary(empty, tombstonesFrom: cutoff)
            #expect(none.count == 0 && none.maxSequence == 0 && none.digest == Data(SHA256.hash(data: Data())))
            #expect(try await server.latestRecords(empty).records.isEmpty)
        }
    }
}
