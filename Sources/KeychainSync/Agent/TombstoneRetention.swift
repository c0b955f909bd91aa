import Foundation
import KeychainCore
import Logging

/// Deletions stay on the server as tombstones for ``period``, so that a member that was
/// offline learns of them; then any member's agent collects them (at most once an hour). A
/// member whose last pass is older than the period may have missed tombstones that are gone:
/// it reconciles instead (``SyncSession/reconcileAfterLongAbsence(server:logger:)``).
package enum TombstoneRetention {
    /// 30 days.
    package static let period: Duration = .seconds(30 * 86_400)
    /// How often an agent collects.
    static let collectionInterval: Int64 = 3_600_000
    /// A last pass older than this reconciles: a day of margin before tombstones go.
    static let reconcileAfter: Int64 = 29 * 86_400_000
}

extension SyncSession {
    /// Collects the server's expired tombstones, at most once an hour per member.
    func collectExpiredTombstones(server: SyncServer, now: Int64, logger: Logger) async throws(SyncFailure) {
        let last = try state.integer(.lastCollection)
        guard now - last >= TombstoneRetention.collectionInterval else { return }
        do {
            let collected = try await server.collectTombstones(configuration.group.bytes, olderThan: TombstoneRetention.period)
            if collected > 0 { logger.info("collected expired tombstones", metadata: ["count": "\(collected)"]) }
        } catch {
            throw .server(error)
        }
        try state.dropTombstoneCopies(before: RecordSetDigest.cutoff(now: now))
        try state.set(.lastCollection, now)
    }

    /// After an absence longer than the tombstones' retention: every synced item this member
    /// holds whose id the server no longer has was deleted elsewhere (its tombstone is gone),
    /// and is deleted here too. The server's ids are read in pages; a local change not sent yet
    /// wins (it is sent by the next push).
    package func reconcileAfterLongAbsence(server: SyncServer, logger: Logger) async throws(SyncFailure) -> Int {
        guard let secrets = configuration.secrets, isMember else { return 0 }
        var present = Set<Data>()
        var cursor: Int64 = 0
        while true {
            let page: [ServerRecord]
            do {
                page = try await server.records(configuration.group.bytes, after: cursor, limit: 5_000)
            } catch {
                throw .server(error)
            }
            guard let last = page.last else { break }
            for record in page { present.insert(record.itemID) }
            cursor = last.sequence
        }
        let sealing = SyncSealing(secrets: secrets)
        let knownLog = try state.integer(.logPushed)
        var deleted = 0
        for entry in try state.mirrorEntries() where !present.contains(entry.itemID) {
            let tombstone = try sealing.open(entry.sealedIdentity)
            let result: SyncApplyResult
            do {
                result = try store.applySyncedDeletion(tombstone, knownLog: knownLog)
            } catch {
                throw .keychain(error)
            }
            guard result != .changedLocally else { continue }
            let version = try state.knownVersion(of: entry.itemID)
                ?? RecordVersion(time: 0, device: me, counter: 0)
            try state.record([.init(itemID: entry.itemID, version: version, place: nil)], progress: [])
            deleted += 1
        }
        if deleted > 0 {
            logger.notice("deleted items whose deletion expired on the server while this member was away",
                          metadata: ["count": "\(deleted)"])
        }
        return deleted
    }
}
