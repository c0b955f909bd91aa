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
        try checkNotForked()
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
            // When each row stopped holding the item it held before this batch, should it hold
            // another now or none: the last of its first entries that name one identity (its
            // delete; a rename logs the new identity first, at the same time). A deleted row's
            // id is given to the next row added, so the row's newest entry may be a later add of
            // another item: dated by it, the deletion would win over changes other members made
            // to the item in between.
            var departure: [Int64: SyncLogEntry] = [:]
            var departed: Set<Int64> = []
            for entry in entries where !departed.contains(entry.rowID) {
                if let first = departure[entry.rowID], first.identity != entry.identity {
                    departed.insert(entry.rowID)
                } else {
                    departure[entry.rowID] = entry
                }
            }
            // The rows as they are now, read in log order up to the first locked one.
            var reads: [(rowID: Int64, last: SyncLogEntry, item: SyncedItem?)] = []
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
                reads.append((entry.rowID, last, item))
                through = max(through, entry.sequence)
            }
            // What the state holds of them (the items their rows held, the versions known),
            // each looked up once for the whole batch rather than once per record: nothing
            // writes the state between these reads and the record of the batch below.
            let mirrors = try state.mirrors(rowIDs: reads.map(\.rowID))
            let itemIDs = reads.map { read in read.item.map { secrets.itemID(for: $0.identityBytes) } }
            let known = try state.knownVersions(of: itemIDs.compactMap { $0 } + mirrors.values.map(\.itemID))
            // What each record is, decided in log order (the versions); sealed afterwards, all
            // at once.
            var plans: [PushPlan] = []
            // The deletion of the item a row held before, when a local change made it leave the
            // row (the row is gone, or holds another item now): dated by ``departure``. When
            // no entry names the item, it left through a remote deletion applied here whose
            // record in the state was lost (the agent was killed in between) and its row was
            // then given to an add: nothing to send, the pull reads that deletion again. The
            // batch's own entries name it almost always (its delete); only otherwise is the
            // rest of the log read.
            let batchIdentities = Set(entries.compactMap(\.identity))
            let batchEnd = entries.last?.sequence ?? pushed
            func deletion(of mirrored: SyncState.MirrorEntry, row: Int64, last: SyncLogEntry) throws(SyncFailure) -> PushPlan? {
                let old = try sealing.open(mirrored.sealedIdentity)
                do {
                    let identity = try store.syncLogIdentity(of: old)
                    if !batchIdentities.contains(identity) {
                        guard try store.syncLogNames(identity: identity, after: batchEnd) else { return nil }
                    }
                } catch .param {
                    // An identity the log cannot be asked about: sent, as every deletion was.
                } catch {
                    throw .keychain(error)
                }
                let gone = departure[row] ?? last
                let version = nextVersion(known: known[mirrored.itemID], at: gone.changedAt, counter: gone.sequence)
                return PushPlan(item: old, itemID: mirrored.itemID, version: version, isTombstone: true, rowID: nil)
            }
            for (read, itemID) in zip(reads, itemIDs) {
                let last = read.last
                let mirrored = mirrors[read.rowID]
                if let item = read.item, let itemID {
                    // The row's primary key changed, or the row holds another item.
                    if let mirrored, mirrored.itemID != itemID,
                       let plan = try deletion(of: mirrored, row: read.rowID, last: last) {
                        plans.append(plan)
                    }
                    let version = nextVersion(known: known[itemID], at: item.modificationTime, counter: last.sequence)
                    plans.append(PushPlan(item: item, itemID: itemID, version: version, isTombstone: false, rowID: read.rowID))
                } else if let mirrored, let plan = try deletion(of: mirrored, row: read.rowID, last: last) {
                    plans.append(plan)
                }
            }
            // The roster this member acts under, for the readers to compare with theirs.
            guard let roster = chain.roster(epoch: secrets.currentEpoch) else {
                throw .damaged("the sync state holds no roster of key epoch \(secrets.currentEpoch); run keychainctl sync leave --local, then join again")
            }
            let sealed = try Self.sealAll(plans, group: configuration.group, secrets: secrets, rosterHead: roster.hash,
                                          author: configuration.device, sealing: sealing)
            let records = sealed.map(\.record)
            var changes: [SyncState.ItemChange] = []
            for (plan, sealed) in zip(plans, sealed) {
                let place = plan.rowID.flatMap { rowID in sealed.identity.map { (rowID: rowID, sealedIdentity: $0) } }
                changes.append(.init(itemID: plan.itemID, version: plan.version, place: place,
                                     copy: (plan.isTombstone, sealed.record.record)))
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
    /// behind. `known` is the latest version this member knows of the item (nil: none), looked
    /// up by the caller for its whole batch.
    func nextVersion(known: RecordVersion?, at time: UInt64, counter: Int64) -> RecordVersion {
        // The same change sent before (a push cut short after its records were stored, or
        // a row sent again after a stop): the same version, which the server ignores.
        if let known, known.device == me, known.counter == UInt64(bitPattern: counter) { return known }
        let floor = known.map(\.nextTime) ?? 0
        return RecordVersion(time: min(max(time, floor), RecordVersion.maximumTime), device: me,
                             counter: UInt64(bitPattern: counter))
    }

    /// Seals a batch's records (each AES-GCM under the group key and signed with ECDSA P-256,
    /// and for a live item the sealed identity the state keeps) on every core, in the plans'
    /// order: once the server stores a batch in one statement, this per-record work is what
    /// sets a push's pace.
    static func sealAll(_ plans: [PushPlan], group: GroupID, secrets: GroupSecrets, rosterHead: Data,
                        author: DeviceIdentity, sealing: SyncSealing) throws(SyncFailure) -> [SealedPlan] {
        let slots = SealedSlots(count: plans.count)
        // Slices of at least 64 records: below that a thread costs more than it saves.
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, plans.count / 64))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: plans.count, by: workers) {
                let plan = plans[index]
                let result: Result<SealedPlan, SyncFailure>
                do throws(SyncFailure) {
                    let record = try seal(plan.item, itemID: plan.itemID, version: plan.version, tombstone: plan.isTombstone,
                                          group: group, secrets: secrets, rosterHead: rosterHead, author: author)
                    result = .success(SealedPlan(record: record, identity: plan.rowID == nil ? nil : try sealing.seal(plan.item)))
                } catch {
                    result = .failure(error)
                }
                slots.set(index, result)
            }
        }
        return try slots.values()
    }

    static func seal(_ item: SyncedItem, itemID: Data, version: RecordVersion, tombstone: Bool, group: GroupID,
                     secrets: GroupSecrets, rosterHead: Data, author: DeviceIdentity) throws(SyncFailure)
        -> (itemID: Data, version: Data, isTombstone: Bool, record: Data) {
        let content = item.serialized(includingSecret: !tombstone)
        do {
            let sealed = try SealedRecord.seal(content: content, itemID: itemID, version: version, isTombstone: tombstone,
                                               group: group, secrets: secrets, rosterHead: rosterHead, author: author)
            return (itemID, version.encoded, tombstone, sealed.encoded)
        } catch {
            throw .damaged("a record could not be sealed: \(error)")
        }
    }
}

/// One record of a push batch as decided in log order, before it is sealed.
struct PushPlan: Sendable {
    var item: SyncedItem
    var itemID: Data
    var version: RecordVersion
    var isTombstone: Bool
    /// The keychain row that holds the item now; nil for a tombstone.
    var rowID: Int64?
}

/// A ``PushPlan`` sealed: the record for the server, and for a live item its sealed identity.
struct SealedPlan: Sendable {
    var record: (itemID: Data, version: Data, isTombstone: Bool, record: Data)
    var identity: Data?
}

/// Where the threads of ``SyncSession/sealAll(_:group:secrets:rosterHead:author:sealing:)`` leave each
/// record's outcome, one slot per plan.
private final class SealedSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<SealedPlan, SyncFailure>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<SealedPlan, SyncFailure>) {
        lock.withLock { slots[index] = result }
    }

    /// Every slot's value in order, or the first failure.
    func values() throws(SyncFailure) -> [SealedPlan] {
        let filled = lock.withLock { slots }
        var values: [SealedPlan] = []
        values.reserveCapacity(filled.count)
        for slot in filled {
            switch slot {
            case .success(let value)?: values.append(value)
            case .failure(let failure)?: throw failure
            case nil: throw .damaged("a record was not sealed")
            }
        }
        return values
    }
}
