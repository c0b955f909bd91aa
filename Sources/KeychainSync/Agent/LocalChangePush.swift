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
    ///
    /// While one batch is sent and recorded (a server transaction, then two synced commits),
    /// the next one is read and sealed: the sending waits on the server and the disk, the
    /// sealing on the processor. The next batch is decided against what the state will hold
    /// once the batch being sent is recorded (its versions, and which row holds which item),
    /// and is sent only after that: batches reach the server, and the state, one after
    /// another, in log order, as before.
    /// Returns how many records it sent.
    @discardableResult
    package func push(server: SyncServer, logger: Logger, batch: Int = SyncSession.pushBatch) async throws(SyncFailure) -> Int {
        guard let secrets = configuration.secrets, isMember else { return 0 }
        try checkNotForked()
        let sealing = SyncSealing(secrets: secrets)
        let pushed = try state.integer(.logPushed)
        do {
            try store.removeSyncLog(through: pushed)
        } catch {
            throw .keychain(error)
        }
        guard var prepared = try prepareBatch(after: pushed, limit: batch, secrets: secrets, sealing: sealing,
                                              sending: PushOverlay()) else { return 0 }
        var sent = 0
        while true {
            let (group, store, state) = (configuration.group.bytes, self.store, self.state)
            let batchSent = prepared
            let sending = Task { () -> Result<Void, SyncFailure> in
                do throws(SyncFailure) {
                    try await Self.send(batchSent, group: group, server: server, store: store, state: state)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            // The next batch, while this one is sent; it goes only once this one is recorded.
            var next: Result<PreparedPush?, SyncFailure> = .success(nil)
            if !prepared.stopped, prepared.entryCount == batch {
                do throws(SyncFailure) {
                    next = .success(try prepareBatch(after: prepared.through, limit: batch, secrets: secrets, sealing: sealing,
                                                     sending: PushOverlay(prepared.changes)))
                } catch {
                    next = .failure(error)
                }
            }
            // A stop (SIGTERM) reaches the sending as it reached the push before it overlapped.
            try await withTaskCancellationHandler { await sending.value } onCancel: { sending.cancel() }.get()
            sent += prepared.records.count
            if prepared.stopped || prepared.entryCount < batch { return sent }
            guard let following = try next.get() else { return sent }
            prepared = following
        }
    }

    /// Appends a prepared batch's records in one server transaction, then records them in
    /// the state and clears the log up to the batch's end.
    private static func send(_ prepared: PreparedPush, group: Data, server: SyncServer, store: KeychainStore,
                             state: SyncState) async throws(SyncFailure) {
        if !prepared.records.isEmpty {
            do {
                _ = try await server.append(group, records: prepared.records)
            } catch {
                throw .server(error)
            }
        }
        try state.record(prepared.changes, progress: [(.logPushed, prepared.through)])
        do {
            try store.removeSyncLog(through: prepared.through)
        } catch {
            throw .keychain(error)
        }
    }

    /// Reads up to `limit` log entries after `pushed` and seals the records they come to, the
    /// state as it will be once `sending` (the batch being sent) is recorded; nil when the
    /// log holds none.
    private func prepareBatch(after pushed: Int64, limit batch: Int, secrets: GroupSecrets, sealing: SyncSealing,
                              sending: PushOverlay) throws(SyncFailure) -> PreparedPush? {
        let entries: [SyncLogEntry]
        do {
            entries = try store.syncLog(after: pushed, limit: batch)
        } catch {
            throw .keychain(error)
        }
        guard !entries.isEmpty else { return nil }
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
        // The rows as they are now, in log order up to the first locked one, read with one
        // statement for the batch (again from a row the keychain could not open at once, which
        // then stops the batch or opens after all).
        var rowIDs: [Int64] = []
        var listed: Set<Int64> = []
        for entry in entries where listed.insert(entry.rowID).inserted { rowIDs.append(entry.rowID) }
        var items: [SyncedItem?] = []
        items.reserveCapacity(rowIDs.count)
        while items.count < rowIDs.count {
            do {
                items += try store.syncedItems(rowIDs: Array(rowIDs[items.count...]))
            } catch .interactionNotAllowed {
                break
            } catch {
                throw .keychain(error)
            }
        }
        var reads: [(rowID: Int64, last: SyncLogEntry, item: SyncedItem?)] = []
        var through = pushed
        var stopped = false
        for entry in entries {
            guard let last = newest[entry.rowID] else {
                // A row sent above as it is now, which this entry changed on the way.
                through = max(through, entry.sequence)
                continue
            }
            guard reads.count < items.count else {
                stopped = true
                break
            }
            newest[entry.rowID] = nil
            reads.append((entry.rowID, last, items[reads.count]))
            through = max(through, entry.sequence)
        }
        // What the state holds of them (the items their rows held, the versions known),
        // each looked up once for the whole batch rather than once per record, as it will be
        // once the batch being sent is recorded: nothing else writes the state before this
        // batch is recorded.
        let mirrors = sending.mirrors(rowIDs: reads.map(\.rowID), stored: try state.mirrors(rowIDs: reads.map(\.rowID)))
        let itemIDs = reads.map { read in read.item.map { secrets.itemID(for: $0.identityBytes) } }
        let lookedUp = itemIDs.compactMap { $0 } + mirrors.values.map(\.itemID)
        let known = sending.knownVersions(of: lookedUp, stored: try state.knownVersions(of: lookedUp))
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
        var changes: [SyncState.ItemChange] = []
        changes.reserveCapacity(plans.count)
        for (plan, sealed) in zip(plans, sealed) {
            let place = plan.rowID.flatMap { rowID in sealed.identity.map { (rowID: rowID, sealedIdentity: $0) } }
            changes.append(.init(itemID: plan.itemID, version: plan.version, place: place,
                                 copy: (plan.isTombstone, sealed.record.record)))
        }
        return PreparedPush(entryCount: entries.count, through: through, stopped: stopped,
                            records: sealed.map(\.record), changes: changes)
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

/// A push batch read and sealed, ready to send.
struct PreparedPush: Sendable {
    /// How many log entries it read: fewer than the batch's size when it read the log's end.
    var entryCount: Int
    /// The last log sequence it deals with.
    var through: Int64
    /// True when it ends before a row whose class key is locked.
    var stopped: Bool
    var records: [(itemID: Data, version: Data, isTombstone: Bool, record: Data)]
    /// What the state records once the records are stored.
    var changes: [SyncState.ItemChange]
}

/// The state as it will be once a batch being sent is recorded (``SyncState/record(_:readBack:progress:)``):
/// its changes laid over what the state holds now, for deciding the next batch meanwhile.
struct PushOverlay {
    /// The mirror rows the batch writes; nil for one it removes.
    private var rows: [Int64: SyncState.MirrorEntry?] = [:]
    /// The row of `rows` each item is in.
    private var rowOfItem: [Data: Int64] = [:]
    /// The items the batch removes from the mirror wherever the state has them.
    private var unplaced: Set<Data> = []
    private var versions: [Data: RecordVersion] = [:]

    init() {}

    /// The overlay of `changes`, in the order the state records them: each item's version,
    /// its mirror rows removed, then its new row placed.
    init(_ changes: [SyncState.ItemChange]) {
        for change in changes {
            versions[change.itemID] = change.version
            if let rowID = rowOfItem.removeValue(forKey: change.itemID) { rows[rowID] = .some(nil) }
            unplaced.insert(change.itemID)
            if let place = change.place {
                // The row's item before, if another, is replaced (the row id is the key).
                if case let replaced?? = rows[place.rowID] { rowOfItem[replaced.itemID] = nil }
                rows[place.rowID] = SyncState.MirrorEntry(rowID: place.rowID, itemID: change.itemID,
                                                          sealedIdentity: place.sealedIdentity)
                rowOfItem[change.itemID] = place.rowID
            }
        }
    }

    /// The mirror rows of `rowIDs`, given `stored`, those the state holds now.
    func mirrors(rowIDs: [Int64], stored: [Int64: SyncState.MirrorEntry]) -> [Int64: SyncState.MirrorEntry] {
        guard !rows.isEmpty || !unplaced.isEmpty else { return stored }
        var entries: [Int64: SyncState.MirrorEntry] = [:]
        for rowID in rowIDs {
            if let written = rows[rowID] {
                entries[rowID] = written
            } else if let entry = stored[rowID], !unplaced.contains(entry.itemID) {
                entries[rowID] = entry
            }
        }
        return entries
    }

    /// The versions known of `itemIDs`, given `stored`, those the state holds now.
    func knownVersions(of itemIDs: [Data], stored: [Data: RecordVersion]) -> [Data: RecordVersion] {
        guard !versions.isEmpty else { return stored }
        var known = stored
        for itemID in itemIDs { if let version = versions[itemID] { known[itemID] = version } }
        return known
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
