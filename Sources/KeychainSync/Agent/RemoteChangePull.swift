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
    /// The membership is refreshed after reading each batch and before applying it: a roster
    /// is published before any record appended after it (SyncServer.publishRoster), so a
    /// removal is known before the records that follow it are checked, and a record naming a
    /// roster head at an epoch still unknown after that is rejected (logged once, as the
    /// cursor moves past it), never waited for. A record written under another roster of an
    /// epoch this member holds is a fork (SealedRecord.fork): kept, and the pull stops with
    /// `.forked` before applying anything of its batch.
    package mutating func pull(server: SyncServer, logger: Logger, batch: Int = SyncSession.pullBatch) async throws(SyncFailure) -> PullReport {
        var report = PullReport()
        guard configuration.secrets != nil, isMember else { return report }
        var cursor = try state.integer(.cursor)
        while true {
            let records: [ServerRecord]
            do {
                records = try await server.records(configuration.group.bytes, after: cursor, limit: batch)
            } catch {
                throw .server(error)
            }
            guard !records.isEmpty else { return report }
            try await refreshMembership(server: server, logger: logger)
            guard let secrets = configuration.secrets else { return report }
            let sealing = SyncSealing(secrets: secrets)
            let knownLog = try state.integer(.logPushed)
            // What each record of the batch comes to, in server order: checked and opened
            // here, then the items applied in one keychain transaction.
            var steps: [PullStep] = []
            var batchChanges: [SyncedChange] = []
            var readBack: [VouchedRecord] = []
            var known = try state.knownVersions(of: records.map(\.itemID))
            var rejected: [(itemID: Data, version: Data)] = []
            for record in records {
                let sealed: SealedRecord
                let content: Data
                do {
                    sealed = try SealedRecord(encoded: record.record, serverItemID: record.itemID, serverVersion: record.version)
                    guard sealed.group == configuration.group else { throw SyncRejection.wrongGroup(.record) }
                    // Every record, also one skipped below, is checked for the roster it names:
                    // one of another history stops the pull before this batch applies anything.
                    if let fork = try sealed.fork(chain: chain) { throw try await reportFork(fork, server: server, logger: logger) }
                    if let version = known[sealed.itemID], version >= sealed.version {
                        if version == sealed.version, version.device == me {
                            // Its own record read back: keeps the digest of the server's copy,
                            // once it checks, for a removal to vouch for.
                            _ = try sealed.open(secrets: secrets, chain: chain)
                            readBack.append(VouchedRecord(itemID: sealed.itemID, version: version, digest: sealed.digest))
                        }
                        steps.append(.skip(sequence: record.sequence))
                        continue
                    }
                    guard sealed.epoch <= secrets.currentEpoch else {
                        // Written under a key this member has not received yet: wait for it,
                        // once the record is known to be a member's. The membership was
                        // refreshed after this batch was read, and a roster is published
                        // before the records that follow it, so a record claiming an epoch
                        // no roster has is forged: rejected, never waited for.
                        try sealed.authenticate(chain: chain)
                        report.stopped = true
                        break
                    }
                    content = try sealed.open(secrets: secrets, chain: chain)
                } catch let rejection as SyncRejection {
                    logger.warning("rejected a record from the sync server", metadata: [
                        "sequence": "\(record.sequence)", "reason": "\(rejection)"])
                    report.rejected += 1
                    rejected.append((record.itemID, record.version))
                    steps.append(.skip(sequence: record.sequence))
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
                    logger.warning("rejected a record whose content is malformed", metadata: ["sequence": "\(record.sequence)"])
                    report.rejected += 1
                    rejected.append((record.itemID, record.version))
                    steps.append(.skip(sequence: record.sequence))
                    continue
                }
                // The content must be the item the id names: a member cannot slip one item's
                // content under another's id.
                guard secrets.itemID(for: item.identityBytes) == sealed.itemID else {
                    logger.warning("rejected a record whose content is another item", metadata: ["sequence": "\(record.sequence)"])
                    report.rejected += 1
                    rejected.append((record.itemID, record.version))
                    steps.append(.skip(sequence: record.sequence))
                    continue
                }
                steps.append(.apply(sequence: record.sequence, sealed: sealed, item: item))
                batchChanges.append(sealed.isTombstone ? .deletion(item) : .item(item))
                known[sealed.itemID] = sealed.version
            }
            let results: [SyncApplyResult]
            do {
                results = try store.applySynced(batchChanges, knownLog: knownLog)
            } catch .interactionNotAllowed {
                results = []
            } catch {
                throw .keychain(error)
            }
            // The cursor moves over what was dealt with, up to the first record not applied
            // (a local change to send first, a locked class key): it is read again next time.
            var changes: [SyncState.ItemChange] = []
            var reached = cursor
            var applying = results.makeIterator()
            walk: for step in steps {
                switch step {
                case .skip(let sequence):
                    reached = sequence
                case .apply(let sequence, let sealed, let item):
                    switch applying.next() {
                    case .applied(let rowID):
                        changes.append(.init(itemID: sealed.itemID, version: sealed.version, place: (rowID, try sealing.seal(item)),
                                             digest: sealed.digest, copy: (sealed.isTombstone, sealed.encoded)))
                    case .deleted, .absent:
                        changes.append(.init(itemID: sealed.itemID, version: sealed.version, place: nil, digest: sealed.digest,
                                             copy: (sealed.isTombstone, sealed.encoded)))
                    case .changedLocally:
                        report.stopped = true
                        report.localChangeFirst = true
                        break walk
                    case nil:
                        report.stopped = true
                        break walk
                    }
                    report.applied += 1
                    reached = sequence
                }
            }
            try state.noteRejected(rejected, epoch: chain.current.epoch)
            try state.record(changes, readBack: readBack, progress: [(.cursor, reached)])
            cursor = reached
            if report.stopped || records.count < batch { return report }
        }
    }

    /// What the pull does with one record of a batch.
    private enum PullStep {
        /// Dealt with without a change: already known, or rejected.
        case skip(sequence: Int64)
        /// Checked and opened: to apply.
        case apply(sequence: Int64, sealed: SealedRecord, item: SyncedItem)
    }
}
