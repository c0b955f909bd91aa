import Foundation
import KeychainCore
import Logging

extension SyncSession {
    /// How many records one pull batch reads, checks and applies: each batch costs a few
    /// round trips (the records, the membership) and two synced commits (the keychain's and
    /// the state's), so fewer, larger batches cost less per record, while what the agent
    /// holds at once stays bounded (about 1,000 times the size of a record, as for a push).
    package static let pullBatch = 1_000

    /// What a pull did.
    package struct PullReport: Sendable, Equatable {
        package var applied = 0
        package var rejected = 0
        /// True when it stopped early: a local change to come first, a locked keychain, or a
        /// record under a key this member does not have yet.
        package var stopped = false
        /// True when it stopped for a local change to come first: sending it and pulling
        /// again goes on; the other reasons wait for the next pass.
        package var localChangeFirst = false
    }

    /// Applies what other members wrote since the cursor. Each record is checked (see
    /// ``SealedRecord``) and applied only when its version is later than the one this member
    /// knows for the item (last writer wins, so every member ends with the same state whatever
    /// order it reads them in). A record that fails its checks is logged, counted and skipped,
    /// never applied. Records are read `batch` at a time (what the agent holds is bounded by
    /// it, whatever the number of items) and each batch is applied in one keychain transaction.
    /// The cursor and what was applied move together, in one state transaction after the
    /// keychain's own: an agent killed between the two applies the same records again, which
    /// gives the same rows.
    ///
    /// The membership is refreshed after reading each batch and before checking it: a roster
    /// is published before any record appended after it (SyncServer.publishRoster), so a
    /// removal is known before the records that follow it are checked, and a record naming a
    /// roster head at an epoch still unknown after that is rejected (logged once, as the
    /// cursor moves past it), never waited for. A record written under another roster of an
    /// epoch this member holds is a fork (SealedRecord.fork): kept, and the pull stops with
    /// `.forked` before applying anything of its batch.
    ///
    /// While one batch is written (the keychain's transaction and the state's, each a synced
    /// commit), the next one is read, and its records checked and opened, on another thread:
    /// the writing is the databases' work and their syncs, the checking mostly signatures,
    /// which then use a second core, or the time the disk takes. The next batch is
    /// checked against the versions the batch being written brings, and only used once that
    /// batch is written whole; what its records showed (rejections, a fork, a failure) counts
    /// only then, as if it had been read after. The membership refreshed for it before that
    /// (rosters kept, a fork of the rosters reported) is the group's, whichever batch comes.
    package mutating func pull(server: SyncServer, logger: Logger, batch: Int = SyncSession.pullBatch) async throws(SyncFailure) -> PullReport {
        var report = PullReport()
        guard configuration.secrets != nil, isMember else { return report }
        var cursor = try state.integer(.cursor)
        guard var checking = try await readAndCheck(after: cursor, server: server, logger: logger, batch: batch,
                                                    versions: [:]) else { return report }
        while true {
            let checked: CheckedPull
            switch checking {
            case .fork(let fork):
                throw try await reportFork(fork, server: server, logger: logger)
            case .checked(let batchChecked):
                checked = batchChecked
            }
            let (store, state) = (self.store, self.state)
            let start = cursor
            let writing = Task.detached { () -> Result<WrittenPull, SyncFailure> in
                do throws(SyncFailure) {
                    return .success(try Self.write(checked, from: start, store: store, state: state, logger: logger))
                } catch {
                    return .failure(error)
                }
            }
            // The next batch, while this one is written; nothing of it counts before that ends.
            var next: Result<CheckedOutcome?, SyncFailure> = .success(nil)
            if checked.readCount == batch, !checked.stopped {
                do throws(SyncFailure) {
                    next = .success(try await readAndCheck(after: checked.lastSequence, server: server, logger: logger,
                                                           batch: batch, versions: checked.versions))
                } catch {
                    next = .failure(error)
                }
            }
            let written = try await writing.value.get()
            report.applied += written.applied
            report.rejected += checked.rejected.count
            cursor = written.reached
            if written.stopped || checked.stopped {
                report.stopped = true
                report.localChangeFirst = written.localChangeFirst
                return report
            }
            guard let following = try next.get() else { return report }
            checking = following
        }
    }

    /// Reads up to `batch` records after `sequence`, refreshes the membership, and checks and
    /// opens them, the latest versions known of their items being the state's, or for an item
    /// in `versions` (those the batch being written brings) that one. Nil when the server
    /// holds no record after `sequence`, or this member holds no group key.
    private mutating func readAndCheck(after sequence: Int64, server: SyncServer, logger: Logger, batch: Int,
                                       versions: [Data: RecordVersion]) async throws(SyncFailure) -> CheckedOutcome? {
        let records: [ServerRecord]
        do {
            records = try await server.records(configuration.group.bytes, after: sequence, limit: batch)
        } catch {
            throw .server(error)
        }
        guard !records.isEmpty else { return nil }
        try await refreshMembership(server: server, logger: logger)
        guard let secrets = configuration.secrets else { return nil }
        var known = try state.knownVersions(of: records.map(\.itemID))
        known.merge(versions) { _, written in written }
        return try check(records, secrets: secrets, known: known)
    }

    /// What each record of a batch comes to, in server order: checked and opened, not applied.
    private func check(_ records: [ServerRecord], secrets: GroupSecrets, known: [Data: RecordVersion]) throws(SyncFailure) -> CheckedOutcome {
        var known = known
        // The kept copies of this member's own records the batch may hold (read back after a
        // push): one read for the batch.
        let own = records.filter { record in known[record.itemID].map { $0.device == me && $0.encoded == record.version } ?? false }
        let copies = own.isEmpty ? [:] : try state.recordCopies(of: own.map(\.itemID))
        var checked = CheckedPull(readCount: records.count, lastSequence: records.last?.sequence ?? 0,
                                  knownLog: try state.integer(.logPushed), epoch: chain.current.epoch,
                                  sealing: SyncSealing(secrets: secrets))
        for record in records {
            let sealed: SealedRecord
            let content: Data
            do {
                sealed = try SealedRecord(encoded: record.record, serverItemID: record.itemID, serverVersion: record.version)
                guard sealed.group == configuration.group else { throw SyncRejection.wrongGroup(.record) }
                // Every record, also one skipped below, is checked for the roster it names:
                // one of another history stops the pull before this batch applies anything.
                if let fork = try sealed.fork(chain: chain) { return .fork(fork) }
                if let version = known[sealed.itemID], version >= sealed.version {
                    if version == sealed.version, version.device == me {
                        // Its own record read back: keeps the digest of the server's copy,
                        // once it checks, for a removal to vouch for. A copy that is, byte for
                        // byte, the record this member sealed and signed (kept in its state
                        // when it sent it) is its own by construction: what the checks of a
                        // record establish, its author, roster, signature and content, it
                        // already knows. Any other bytes are checked in full.
                        let kept = copies[sealed.itemID]
                        if kept?.version != record.version || kept?.record != record.record {
                            _ = try sealed.open(secrets: secrets, chain: chain)
                        }
                        checked.readBack.append(VouchedRecord(itemID: sealed.itemID, version: version, digest: sealed.digest))
                    } else {
                        // Skipped for the version it claims, which counts only once the record
                        // is known to be a member's: one that fails is rejected and logged.
                        try sealed.authenticate(chain: chain)
                    }
                    checked.steps.append(.skip(sequence: record.sequence))
                    continue
                }
                guard sealed.epoch <= secrets.currentEpoch else {
                    // Written under a key this member has not received yet: wait for it,
                    // once the record is known to be a member's. The membership was
                    // refreshed after this batch was read, and a roster is published
                    // before the records that follow it, so a record claiming an epoch
                    // no roster has is forged: rejected, never waited for.
                    try sealed.authenticate(chain: chain)
                    checked.stopped = true
                    break
                }
                content = try sealed.open(secrets: secrets, chain: chain)
            } catch let rejection as SyncRejection {
                checked.reject(record, reason: "\(rejection)")
                continue
            } catch let failure as SyncFailure {
                throw failure
            } catch {
                throw .damaged("a record could not be checked: \(error)")
            }
            let item: SyncedItem
            do {
                item = try SyncedItem(serialized: content)
            } catch {
                checked.reject(record, reason: nil, message: "rejected a record whose content is malformed")
                continue
            }
            // The content must be the item the id names: a member cannot slip one item's
            // content under another's id.
            guard secrets.itemID(for: item.identityBytes) == sealed.itemID else {
                checked.reject(record, reason: nil, message: "rejected a record whose content is another item")
                continue
            }
            checked.steps.append(.apply(sequence: record.sequence, sealed: sealed, item: item))
            checked.changes.append(sealed.isTombstone ? .deletion(item) : .item(item))
            known[sealed.itemID] = sealed.version
            checked.versions[sealed.itemID] = sealed.version
        }
        return .checked(checked)
    }

    /// Applies a checked batch in one keychain transaction, then records in one state
    /// transaction what was applied and the cursor, moved from `cursor` over what was dealt
    /// with, up to the first record not applied (a local change to send first, a locked class
    /// key): it is read again next time. Logs the batch's rejections.
    private static func write(_ checked: CheckedPull, from cursor: Int64, store: KeychainStore, state: SyncState,
                              logger: Logger) throws(SyncFailure) -> WrittenPull {
        for rejection in checked.rejections {
            var metadata: Logger.Metadata = ["sequence": "\(rejection.sequence)"]
            if let reason = rejection.reason { metadata["reason"] = "\(reason)" }
            logger.warning("\(rejection.message)", metadata: metadata)
        }
        let results: [SyncApplyResult]
        do {
            results = try store.applySynced(checked.changes, knownLog: checked.knownLog)
        } catch .interactionNotAllowed {
            results = []
        } catch {
            throw .keychain(error)
        }
        var written = WrittenPull(reached: cursor)
        var changes: [SyncState.ItemChange] = []
        changes.reserveCapacity(results.count)
        var applying = results.makeIterator()
        walk: for step in checked.steps {
            switch step {
            case .skip(let sequence):
                written.reached = sequence
            case .apply(let sequence, let sealed, let item):
                switch applying.next() {
                case .applied(let rowID):
                    changes.append(.init(itemID: sealed.itemID, version: sealed.version,
                                         place: (rowID, try checked.sealing.seal(item)),
                                         digest: sealed.digest, copy: (sealed.isTombstone, sealed.encoded)))
                case .deleted, .absent:
                    changes.append(.init(itemID: sealed.itemID, version: sealed.version, place: nil, digest: sealed.digest,
                                         copy: (sealed.isTombstone, sealed.encoded)))
                case .changedLocally:
                    written.stopped = true
                    written.localChangeFirst = true
                    break walk
                case nil:
                    written.stopped = true
                    break walk
                }
                written.applied += 1
                written.reached = sequence
            }
        }
        try state.noteRejected(checked.rejected, epoch: checked.epoch)
        try state.record(changes, readBack: checked.readBack, progress: [(.cursor, written.reached)])
        return written
    }

    /// What checking a batch found.
    private enum CheckedOutcome: Sendable {
        case checked(CheckedPull)
        /// A record of another history of the membership: nothing of the batch is applied.
        case fork(SyncFork)
    }

    /// A batch checked and opened, ready to apply.
    private struct CheckedPull: Sendable {
        /// How many records were read, and the sequence of the last.
        var readCount: Int
        var lastSequence: Int64
        /// The last keychain log sequence pushed when it was checked (see
        /// ``KeychainStore/applySynced(_:knownLog:)``).
        var knownLog: Int64
        /// The key epoch this member held when it was checked, with which its rejections are noted.
        var epoch: UInt64
        var sealing: SyncSealing
        var steps: [PullStep] = []
        /// The changes of the `.apply` steps, in order.
        var changes: [SyncedChange] = []
        var readBack: [VouchedRecord] = []
        var rejected: [(itemID: Data, version: Data)] = []
        /// What is logged of each rejection once the batch is written.
        var rejections: [(sequence: Int64, message: String, reason: String?)] = []
        /// True when it ends before a record under a key this member does not have yet.
        var stopped = false
        /// The version of each item an `.apply` step brings.
        var versions: [Data: RecordVersion] = [:]

        mutating func reject(_ record: ServerRecord, reason: String?, message: String = "rejected a record from the sync server") {
            rejections.append((record.sequence, message, reason))
            rejected.append((record.itemID, record.version))
            steps.append(.skip(sequence: record.sequence))
        }
    }

    /// What writing a batch did.
    private struct WrittenPull: Sendable {
        var reached: Int64
        var applied = 0
        var stopped = false
        var localChangeFirst = false
    }

    /// What the pull does with one record of a batch.
    private enum PullStep: Sendable {
        /// Dealt with without a change: already known, or rejected.
        case skip(sequence: Int64)
        /// Checked and opened: to apply.
        case apply(sequence: Int64, sealed: SealedRecord, item: SyncedItem)
    }
}
