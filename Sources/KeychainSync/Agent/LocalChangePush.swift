import Foundation
import KeychainCore
import Logging

extension SyncSession {
    /// How many logged changes one push transaction carries: the server stores a batch with
    /// one statement, so a larger batch costs little more than a small one, while the records
    /// the agent holds at once stay bounded (about 1,000 times the size of a record).
    package static let pushBatch = 1_000

    /// Sends what changed in the keychain since the last push: reads its change log, seals a
    /// record (or a tombstone) for each changed row as it is now, appends them in one server
    /// transaction, then records what was sent and clears the log up to there.
    ///
    /// Killed at any point, the next push sends the same rows with the same versions (the
    /// version's counter is the log sequence and its time depends only on what is recorded),
    /// which the server ignores as duplicates: nothing is lost and nothing applied twice.
    /// A row whose protection class is locked stops the push there; it and the rows after it
    /// go when the keychain is unlocked.
    /// Returns how many records it sent.
    @discardableResult
    package func push(server: SyncServer, logger: Logger, batch: Int = SyncSession.pushBatch) async throws(SyncFailure) -> Int {
        guard let secrets = configuration.secrets, isMember else { return 0 }
        let sealing = SyncSealing(secrets: secrets)
        var sent = 0
        while true {
            let pushed = try state.integer(.logPushed)
            let entries: [SyncLogEntry]
            do {
                try store.removeSyncLog(through: pushed)
                entries = try store.syncLog(after: pushed, limit: batch)
            } catch {
                throw .keychain(error)
            }
            guard !entries.isEmpty else { return sent }
            // The newest entry of each row: the row is sent as it is now, once.
            var newest: [Int64: SyncLogEntry] = [:]
            for entry in entries where (newest[entry.rowID]?.sequence ?? .min) < entry.sequence {
                newest[entry.rowID] = entry
            }
            var records: [(itemID: Data, version: Data, isTombstone: Bool, record: Data)] = []
            var changes: [SyncState.ItemChange] = []
            var through = pushed
            var stopped = false
            for entry in entries {
                guard let last = newest[entry.rowID] else {
                    // A row sent above as it is now, which this entry changed on the way.
                    through = max(through, entry.sequence)
                    continue
                }
                let item: SyncedItem?
                do {
                    item = try store.syncedItem(rowID: entry.rowID)
                } catch .interactionNotAllowed {
                    stopped = true
                    break
                } catch {
                    throw .keychain(error)
                }
                newest[entry.rowID] = nil
                let mirrored = try state.mirror(rowID: entry.rowID)
                if let item {
                    let itemID = secrets.itemID(for: item.identityBytes)
                    if let mirrored, mirrored.itemID != itemID {
                        // The row's primary key changed: the item it held before is gone.
                        let old = try sealing.open(mirrored.sealedIdentity)
                        let version = try nextVersion(of: mirrored.itemID, at: last.changedAt, counter: last.sequence)
                        records.append(try seal(old, itemID: mirrored.itemID, version: version, tombstone: true, secrets: secrets))
                        changes.append(.init(itemID: mirrored.itemID, version: version, place: nil))
                    }
                    let version = try nextVersion(of: itemID, at: item.modificationTime, counter: last.sequence)
                    records.append(try seal(item, itemID: itemID, version: version, tombstone: false, secrets: secrets))
                    changes.append(.init(itemID: itemID, version: version, place: (entry.rowID, try sealing.seal(item))))
                } else if let mirrored {
                    let tombstone = try sealing.open(mirrored.sealedIdentity)
                    let version = try nextVersion(of: mirrored.itemID, at: last.changedAt, counter: last.sequence)
                    records.append(try seal(tombstone, itemID: mirrored.itemID, version: version, tombstone: true, secrets: secrets))
                    changes.append(.init(itemID: mirrored.itemID, version: version, place: nil))
                }
                through = max(through, entry.sequence)
            }
            if !records.isEmpty {
                do {
                    _ = try await server.append(configuration.group.bytes, records: records)
                } catch {
                    throw .server(error)
                }
            }
            try state.record(changes, progress: [(.logPushed, through)])
            do {
                try store.removeSyncLog(through: through)
            } catch {
                throw .keychain(error)
            }
            sent += records.count
            if stopped || entries.count < batch { return sent }
        }
    }

    /// The version of a local change: never below one this member has seen for the item, so
    /// that an edit made after seeing another member's orders after it even when this clock is
    /// behind.
    func nextVersion(of itemID: Data, at time: UInt64, counter: Int64) throws(SyncFailure) -> RecordVersion {
        let known = try state.knownVersion(of: itemID)
        // The same change sent before (a push cut short after its records were stored, or
        // a row sent again after a stop): the same version, which the server ignores.
        if let known, known.device == me, known.counter == UInt64(bitPattern: counter) { return known }
        let floor = known.map(\.nextTime) ?? 0
        return RecordVersion(time: min(max(time, floor), RecordVersion.maximumTime), device: me,
                             counter: UInt64(bitPattern: counter))
    }

    func seal(_ item: SyncedItem, itemID: Data, version: RecordVersion, tombstone: Bool,
              secrets: GroupSecrets) throws(SyncFailure) -> (itemID: Data, version: Data, isTombstone: Bool, record: Data) {
        let content = item.serialized(includingSecret: !tombstone)
        do {
            let sealed = try SealedRecord.seal(content: content, itemID: itemID, version: version, isTombstone: tombstone,
                                               group: configuration.group, secrets: secrets, author: configuration.device)
            return (itemID, version.encoded, tombstone, sealed.encoded)
        } catch {
            throw .damaged("a record could not be sealed: \(error)")
        }
    }
}
