import Crypto
import Foundation
import GRDB
import KeychainCore
import Logging

/// The digest a member and the server compute over a group's latest (item id, version) pairs:
/// SHA-256 over each item's 32-byte id and 32-byte version, in item id order (byte order, as
/// both SQLite and PostgreSQL order blobs). Tombstones whose time is before the cutoff are
/// left out on both sides: the server collects them after the retention, and a member keeps
/// knowing them, so counting them would make the two differ for no loss.
package enum RecordSetDigest {
    /// The cutoff for a pass at `now` (ms since 1970): a day inside the retention, so that a
    /// tombstone is left out on both sides before the server may collect it.
    static func cutoff(now: Int64) -> Data {
        let time = UInt64(max(0, now - TombstoneRetention.reconcileAfter))
        return withUnsafeBytes(of: time.bigEndian) { Data($0) }
    }

    static func digest(_ entries: [(itemID: Data, version: Data)]) -> Data {
        var hash = SHA256()
        for entry in entries {
            hash.update(data: entry.itemID)
            hash.update(data: entry.version)
        }
        return Data(hash.finalize())
    }

    static func isExpiredTombstone(version: Data, isTombstone: Bool, cutoff: Data) -> Bool {
        isTombstone && version.prefix(8).lexicographicallyPrecedes(cutoff)
    }
}

extension SyncState {
    /// The latest version this member knows of each item, tombstones before `cutoff` left
    /// out, in item id order. An item known without a kept record is a tombstone when no
    /// keychain row holds it.
    func latestVersions(tombstonesFrom cutoff: Data) throws(SyncFailure) -> [(itemID: Data, version: Data)] {
        try run { db in
            try Row.fetchAll(db, sql: """
                SELECT known.item_id, known.version FROM known LEFT JOIN record_copy ON record_copy.item_id = known.item_id
                WHERE NOT (coalesce(record_copy.tombstone, NOT EXISTS (SELECT 1 FROM mirror WHERE mirror.item_id = known.item_id))
                           AND substr(known.version, 1, 8) < ?)
                ORDER BY known.item_id
                """, arguments: [cutoff]).map { (itemID: $0["item_id"] as Data, version: $0["version"] as Data) }
        }
    }

    /// The kept copies of the latest records of `itemIDs` (those without one are absent).
    func recordCopies(of itemIDs: [Data]) throws(SyncFailure) -> [Data: (version: Data, isTombstone: Bool, record: Data)] {
        var copies: [Data: (version: Data, isTombstone: Bool, record: Data)] = [:]
        for row in try rows("SELECT item_id, version, tombstone, record FROM record_copy WHERE item_id IN", matching: itemIDs) {
            let itemID: Data = row["item_id"]
            copies[itemID] = (version: row["version"] as Data, isTombstone: row["tombstone"] as Bool, record: row["record"] as Data)
        }
        return copies
    }

    /// The items known without a kept copy, with their versions.
    func knownWithoutCopy() throws(SyncFailure) -> [Data: Data] {
        try run { db in
            var versions: [Data: Data] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT item_id, version FROM known WHERE item_id NOT IN (SELECT item_id FROM record_copy)
                """) {
                versions[row["item_id"] as Data] = row["version"] as Data
            }
            return versions
        }
    }

    /// Keeps copies of records read from the server for items that have none.
    func addMissingCopies(_ copies: [(itemID: Data, version: Data, isTombstone: Bool, record: Data)]) throws(SyncFailure) {
        try run { db in
            for copy in copies {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO record_copy (item_id, version, tombstone, record)
                    SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM known WHERE item_id = ? AND version = ?)
                    """, arguments: [copy.itemID, copy.version, copy.isTombstone, copy.record, copy.itemID, copy.version])
            }
        }
    }

    /// Remembers records of the server that a pull rejected while this member held key `epoch`.
    func noteRejected(_ records: [(itemID: Data, version: Data)], epoch: UInt64) throws(SyncFailure) {
        guard !records.isEmpty else { return }
        try run { db in
            for record in records {
                try db.execute(sql: "INSERT OR REPLACE INTO rejected (item_id, version, epoch) VALUES (?, ?, ?)",
                               arguments: [record.itemID, record.version, Int64(bitPattern: epoch)])
            }
        }
    }

    /// Of `records`, those a pull rejected while this member held key `epoch`, as it does now.
    func rejected(among records: [(itemID: Data, version: Data)], epoch: UInt64) throws(SyncFailure) -> Set<Data> {
        try run { db in
            var found: Set<Data> = []
            for record in records where try Bool.fetchOne(db, sql: """
                SELECT 1 FROM rejected WHERE item_id = ? AND version = ? AND epoch = ?
                """, arguments: [record.itemID, record.version, Int64(bitPattern: epoch)]) == true {
                found.insert(record.itemID + record.version)
            }
            return found
        }
    }

    /// Drops the kept copies of tombstones whose time is before `cutoff`: past the retention,
    /// the server may collect them and they are never sent again.
    func dropTombstoneCopies(before cutoff: Data) throws(SyncFailure) {
        try run { db in
            try db.execute(sql: "DELETE FROM record_copy WHERE tombstone AND substr(version, 1, 8) < ?", arguments: [cutoff])
        }
    }
}

extension SyncSession {
    /// What a completeness check found and did.
    package struct HealingReport: Sendable, Equatable {
        /// Rosters (membership changes) the server had lost, sent again.
        package var rostersResent = 0
        /// Members of the current roster whose key wrap the server had lost, wrapped again.
        package var keyWrapsResent = 0
        /// Records the server had lost (or held only in an older version), sent again.
        package var resent = 0
        /// Records the server held that this member had skipped, read again.
        package var reread = 0
        /// Whether the server's highest sequence was below this member's cursor.
        package var rolledBack = false
        /// Differences left: records lost that this member holds no copy of, or records the
        /// server holds that fail their checks here.
        package var unhealed = 0
        /// Records applied by the pulls the check made.
        package var applied = 0
        /// Whether the check's last pull stopped early (see ``PullReport/stopped``).
        package var pullStopped = false

        package var foundSomething: Bool { rostersResent > 0 || keyWrapsResent > 0 || resent > 0 || reread > 0 || rolledBack || unhealed > 0 }

        /// One line for the log and `sync status`.
        package var summary: String {
            var parts: [String] = []
            if rolledBack { parts.append("the server's record numbers went back (restored from a backup?)") }
            if rostersResent > 0 {
                parts.append("the server had lost \(rostersResent) membership change\(rostersResent == 1 ? "" : "s"); sent them again")
            }
            if keyWrapsResent > 0 {
                parts.append("the server had lost the group's keys of \(keyWrapsResent) member\(keyWrapsResent == 1 ? "" : "s"); "
                             + "sent them again")
            }
            if resent > 0 { parts.append("the server had lost \(resent) record\(resent == 1 ? "" : "s"); sent them again") }
            if reread > 0 { parts.append("\(reread) record\(reread == 1 ? "" : "s") on the server had been skipped; read them again") }
            if unhealed > 0 {
                parts.append("\(unhealed) difference\(unhealed == 1 ? "" : "s") with the server could not be healed "
                             + "(records that fail their checks, or lost records this member holds no copy of)")
            }
            return parts.joined(separator: "; ")
        }
    }

    /// Checks, after a pass's push and pull, that the server holds the latest version of
    /// every item this member knows, and that this member knows every latest version the
    /// server holds below its cursor; heals what differs. A server restored from a backup, or
    /// one that dropped rows, is noticed here rather than trusted.
    ///
    /// When nothing is wrong this is one query (``SyncServer/recordSetSummary(_:tombstonesFrom:)``)
    /// and a read of the state. When the digests differ, a pull and a second summary first
    /// (another member's append between the pull and the check differs for no loss); if they
    /// still differ, the server's latest (item id, version, sequence) list is read and:
    /// - what the server lacks, or holds only in an older version, is sent again verbatim from
    ///   the kept copies (sealed and signed by their authors; the server cannot alter them);
    /// - what it holds in a version this member does not know, at a sequence at or below the
    ///   cursor, was skipped (the server's sequence went back and came forward over it): the
    ///   cursor moves back before it and the pull reads it again;
    /// - a highest sequence below the cursor moves the cursor back to it, so that rows
    ///   appended from then on are read.
    /// A difference left (a record that fails its checks here, a lost record with no copy, a
    /// pull that cannot go on yet) is remembered with both digests and not worked on again
    /// until either changes.
    package mutating func healServerRecords(server: SyncServer, logger: Logger, now: Int64) async throws(SyncFailure) -> HealingReport {
        var report = HealingReport()
        guard configuration.secrets != nil, isMember else { return report }
        let group = configuration.group.bytes
        let cutoff = RecordSetDigest.cutoff(now: now)
        try await fillMissingCopies(server: server)
        var summary = try await summarize(server: server, cutoff: cutoff)
        if summary.server.maxEpoch < Int64(bitPattern: chain.current.epoch) {
            report.rostersResent = try await resendRosters(after: summary.server.maxEpoch, server: server, logger: logger)
        }
        report.keyWrapsResent = try await resendMissingKeyWraps(server: server, logger: logger)
        var cursor = try state.integer(.cursor)
        if summary.matches, summary.server.maxSequence >= cursor {
            if try state.text(.unhealedDigests) != nil { try state.set(.unhealedDigests, nil) }
            if report.foundSomething { try noteHealing(report, now: now) }
            return report
        }
        if summary.server.maxSequence >= cursor {
            if try state.text(.unhealedDigests) == summary.marker { return report }
            // Another member may have appended since the pull: read it, then compare again.
            let pulled = try await pull(server: server, logger: logger)
            report.applied += pulled.applied
            report.pullStopped = pulled.stopped
            summary = try await summarize(server: server, cutoff: cutoff)
            cursor = try state.integer(.cursor)
            if summary.matches, summary.server.maxSequence >= cursor { return report }
        }

        let latest: (maxSequence: Int64, records: [ServerLatestRecord])
        do {
            latest = try await server.latestRecords(group)
        } catch {
            throw .server(error)
        }
        var newCursor = cursor
        if latest.maxSequence < cursor {
            report.rolledBack = true
            newCursor = latest.maxSequence
        }
        // What this member knows, as the last comparison read it (nothing applied since).
        let mine = summary.mine
        var onServer: [Data: ServerLatestRecord] = [:]
        onServer.reserveCapacity(latest.records.count)
        for record in latest.records { onServer[record.itemID] = record }
        // What the server lacks or holds older: to send again.
        var lost: [(itemID: Data, version: Data)] = []
        var mineByID: [Data: Data] = [:]
        mineByID.reserveCapacity(mine.count)
        for entry in mine {
            mineByID[entry.itemID] = entry.version
            if let held = onServer[entry.itemID], !held.version.lexicographicallyPrecedes(entry.version) { continue }
            lost.append(entry)
        }
        // What the server holds that this member does not know, below its cursor: skipped.
        let unknownCandidates = latest.records.filter { record in
            !RecordSetDigest.isExpiredTombstone(version: record.version, isTombstone: record.isTombstone, cutoff: cutoff)
                && mineByID[record.itemID] != record.version
        }
        let knownOfCandidates = try state.knownVersions(of: unknownCandidates.map(\.itemID))
        let rejectedBefore = try state.rejected(among: unknownCandidates.map { ($0.itemID, $0.version) },
                                                epoch: chain.current.epoch)
        var skipped: [ServerLatestRecord] = []
        for record in unknownCandidates {
            if let known = knownOfCandidates[record.itemID], !known.encoded.lexicographicallyPrecedes(record.version) { continue }
            // Rejected when it was read: reading it again would only reject (and log) it again.
            if rejectedBefore.contains(record.itemID + record.version) {
                report.unhealed += 1
                continue
            }
            // Above the cursor: not read yet, which the pull below does; not a loss.
            if record.sequence <= cursor { skipped.append(record) }
        }
        if let first = skipped.map(\.sequence).min() { newCursor = min(newCursor, first - 1) }
        report.reread = skipped.count
        if newCursor != cursor {
            try state.set(.cursor, newCursor)
            logger.warning("""
                the sync server holds records below this member's position that it had not read, or its record numbers \
                went back (restored from a backup?); reading it again
                """, metadata: ["from": "\(newCursor)", "was": "\(cursor)"])
        }

        // Sent again verbatim, in the server's usual batches.
        let copies = try state.recordCopies(of: lost.map(\.itemID))
        var resend: [(itemID: Data, version: Data, isTombstone: Bool, record: Data)] = []
        for entry in lost {
            guard let copy = copies[entry.itemID], copy.version == entry.version else {
                // Deleted here and kept without a copy (from before copies were kept, or
                // expired): nothing to bring back, and nothing to send.
                report.unhealed += 1
                continue
            }
            resend.append((entry.itemID, copy.version, copy.isTombstone, copy.record))
        }
        for start in stride(from: 0, to: resend.count, by: 256) {
            do {
                _ = try await server.append(group, records: Array(resend[start..<min(start + 256, resend.count)]))
            } catch {
                throw .server(error)
            }
        }
        report.resent = resend.count
        if report.resent > 0 {
            logger.warning("the sync server had lost records; sent them again", metadata: ["count": "\(report.resent)"])
        }

        let pulled = try await pull(server: server, logger: logger)
        report.applied += pulled.applied
        report.pullStopped = pulled.stopped
        if !skipped.isEmpty {
            let after = try state.knownVersions(of: skipped.map(\.itemID))
            let left = skipped.filter { record in
                guard let known = after[record.itemID] else { return true }
                return known.encoded.lexicographicallyPrecedes(record.version)
            }
            // A pull stopped (a locked keychain, a key not received yet) goes on next pass.
            if !pulled.stopped { report.unhealed += left.count }
        }
        if report.unhealed > 0 || pulled.stopped {
            // The same difference is not listed again at every pass (while the keychain stays
            // locked, say): only once the server or this member changed.
            let after = try await summarize(server: server, cutoff: cutoff)
            if !after.matches { try state.set(.unhealedDigests, after.marker) }
        }
        if report.unhealed > 0 {
            logger.warning("differences with the sync server that this member cannot heal",
                           metadata: ["count": "\(report.unhealed)"])
        }
        if report.foundSomething { try noteHealing(report, now: now) }
        return report
    }

    /// Once, for a state kept before record copies were: takes from the server the records
    /// of the latest versions this member knows, checked as a pull checks their authors, so
    /// that it can send them again should the server lose them later. A new member's state
    /// has nothing to fill.
    private func fillMissingCopies(server: SyncServer) async throws(SyncFailure) {
        guard try state.integer(.copiesFilled) == 0 else { return }
        let missing = try state.knownWithoutCopy()
        var after: Int64 = 0
        while !missing.isEmpty {
            let page: [ServerRecord]
            do {
                page = try await server.records(configuration.group.bytes, after: after, limit: 1_000)
            } catch {
                throw .server(error)
            }
            guard let last = page.last else { break }
            var copies: [(itemID: Data, version: Data, isTombstone: Bool, record: Data)] = []
            for record in page where missing[record.itemID] == record.version {
                guard let sealed = try? SealedRecord(encoded: record.record, serverItemID: record.itemID,
                                                     serverVersion: record.version),
                      (try? sealed.authenticate(chain: chain)) != nil else { continue }
                copies.append((record.itemID, record.version, sealed.isTombstone, sealed.encoded))
            }
            try state.addMissingCopies(copies)
            after = last.sequence
        }
        try state.set(.copiesFilled, 1)
    }

    /// Keeps what a check found and did, dated, for `sync status`.
    private func noteHealing(_ report: HealingReport, now: Int64) throws(SyncFailure) {
        let when = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(now) / 1000))
        try state.set(.lastHealing, "\(when): \(report.summary)")
    }

    /// Publishes again, verbatim, the rosters this member verified beyond the server's
    /// highest epoch (a restored backup older than a join or a removal, or rows deleted):
    /// signed by members, they are checked like any roster, and a machine that joins
    /// afterwards needs the whole chain. With each goes the group's keys wrapped anew to each
    /// of its members, cut at its epoch as the first wraps were, when this member was one of
    /// them and holds that epoch's keys: the server lost those wraps with the roster, and a
    /// member that takes a roster without its wrap can read nothing written under it (a
    /// member approved just before a restore, say, would never get the group's keys).
    func resendRosters(after epoch: Int64, server: SyncServer, logger: Logger) async throws(SyncFailure) -> Int {
        try await resendRosters(server: server, logger: logger) { $0 > epoch }
    }

    /// Publishes again, as ``resendRosters(after:server:logger:)`` does, the rosters of the
    /// epochs `lost` picks.
    func resendRosters(server: SyncServer, logger: Logger, lost: (Int64) -> Bool) async throws(SyncFailure) -> Int {
        var sent = 0
        for encoded in try state.rosters() {
            let roster: Roster
            do {
                roster = try Roster(encoded: encoded)
            } catch {
                throw .damaged("the sync state holds a malformed roster")
            }
            let rosterEpoch = Int64(bitPattern: roster.epoch)
            guard lost(rosterEpoch) else { continue }
            var wraps: [(device: Data, wrap: Data)] = []
            if let secrets = configuration.secrets, secrets.currentEpoch >= roster.epoch, roster.member(me) != nil {
                do {
                    for member in roster.members {
                        let wrap = try KeyWrap.wrap(secrets, epoch: roster.epoch, group: configuration.group, to: member,
                                                    by: configuration.device)
                        wraps.append((member.id.bytes, wrap.encoded))
                    }
                } catch {
                    throw .damaged("the group's keys could not be wrapped: \(error)")
                }
            }
            do {
                try await server.publishRoster(configuration.group.bytes, epoch: rosterEpoch, roster: roster.encoded, wraps: wraps)
                sent += 1
            } catch .alreadyExists {
                // Another member sent it first.
            } catch {
                throw .server(error)
            }
        }
        if sent > 0 {
            logger.warning("the sync server had lost membership changes; sent them again", metadata: ["count": "\(sent)"])
        }
        return sent
    }

    /// Wraps the current epoch's keys again for each member of the current roster whose wrap
    /// the server no longer holds (rows deleted by whoever holds the database, while the
    /// roster stayed): a member that had not taken its wrap yet would otherwise wait for ever
    /// on what is written under the new key. Returns how many it wrapped again.
    func resendMissingKeyWraps(server: SyncServer, logger: Logger) async throws(SyncFailure) -> Int {
        let roster = chain.current
        guard roster.epoch >= 1, let secrets = configuration.secrets, secrets.currentEpoch == roster.epoch else { return 0 }
        let group = configuration.group
        let epoch = Int64(bitPattern: roster.epoch)
        let held: Set<Data>
        do {
            held = try await server.keyWrapRecipients(group.bytes, epoch: epoch)
        } catch {
            throw .server(error)
        }
        let missing = roster.members.filter { !held.contains($0.id.bytes) }
        guard !missing.isEmpty else { return 0 }
        var wraps: [(device: Data, wrap: Data)] = []
        do {
            for member in missing {
                wraps.append((member.id.bytes, try KeyWrap.wrap(secrets, epoch: roster.epoch, group: group, to: member,
                                                               by: configuration.device).encoded))
            }
        } catch {
            throw .damaged("the group's keys could not be wrapped: \(error)")
        }
        do {
            try await server.addKeyWraps(group.bytes, epoch: epoch, wraps: wraps)
        } catch .notFound {
            // The roster itself is gone: sent again with its wraps (resendRosters).
            return 0
        } catch {
            throw .server(error)
        }
        logger.warning("the sync server had lost key wraps of the current epoch; wrapped the keys again",
                       metadata: ["count": "\(wraps.count)"])
        return wraps.count
    }

    /// The server's summary and this member's digest, compared. The marker of a difference
    /// left unhealed also names this member's key epoch: a roster taken since can change the
    /// verdict on the records it rejected (one naming a roster it did not hold yet may prove a
    /// fork), so the difference is worked on again.
    private func summarize(server: SyncServer, cutoff: Data) async throws(SyncFailure) -> (
        server: ServerRecordSetSummary, matches: Bool, marker: String, mine: [(itemID: Data, version: Data)]
    ) {
        let summary: ServerRecordSetSummary
        do {
            summary = try await server.recordSetSummary(configuration.group.bytes, tombstonesFrom: cutoff)
        } catch {
            throw .server(error)
        }
        let mine = try state.latestVersions(tombstonesFrom: cutoff)
        let digest = RecordSetDigest.digest(mine)
        return (summary, Int64(mine.count) == summary.count && digest == summary.digest,
                Hex.string(summary.digest) + ":" + Hex.string(digest) + ":\(chain.current.epoch)", mine)
    }
}
