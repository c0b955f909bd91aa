import Crypto
import Foundation
import GRDB
import GRDBSQLite

/// Reading items for sync and applying remote changes, for the sync agent, which acts for
/// the keychain's owner: no access group check, and no log entry for what it applies, so
/// that a change is never sent back to where it came from.
extension KeychainStore {
    /// The row as sync carries it; nil when the row is gone, not synchronizable or
    /// ThisDeviceOnly.
    ///
    /// - Throws: errSecInteractionNotAllowed when its class key is locked (the agent tries
    ///   again after an unlock); errSecDecode for a damaged row.
    package func syncedItem(rowID: Int64) throws(KeychainError) -> SyncedItem? {
        try withCurrentClassKeys { () throws(KeychainError) in
            try Self.oneStatement(database, during: "read a synced item") { db -> SyncedItem? in
                var found: StoredRow?
                try DirectStatement(db, sql: "SELECT \(StoredRow.selectedColumns), secret FROM item WHERE id = ?",
                                    values: [.integer(rowID)]).forEachRow { statement in
                    found = try StoredRow(statement: statement)
                    return false
                }
                return try self.syncedItem(of: found)
            }
        }
    }

    /// The rows of `rowIDs` as sync carries them, in that order, read with one statement: each
    /// as ``syncedItem(rowID:)`` gives it (nil for a row that is gone, not synchronizable or
    /// ThisDeviceOnly). A push reads a whole batch of rows this way rather than one statement
    /// (and one lock of the database) per row.
    ///
    /// - Returns: a prefix of the rows: it ends before the first row that cannot be opened now
    ///   (its class key locked, or retired by a password change in another process), which a
    ///   call starting at that row reports.
    /// - Throws: what ``syncedItem(rowID:)`` throws for the first row (errSecInteractionNotAllowed
    ///   when its class key is locked; errSecDecode for a damaged row).
    package func syncedItems(rowIDs: [Int64]) throws(KeychainError) -> [SyncedItem?] {
        guard !rowIDs.isEmpty else { return [] }
        // The ids as one JSON array parameter: one cached statement whatever their number.
        let list = "[" + rowIDs.map(String.init).joined(separator: ",") + "]"
        return try withCurrentClassKeys { () throws(KeychainError) in
            let rows = try Self.oneStatement(database, during: "read synced items") { db -> [Int64: StoredRow] in
                var found: [Int64: StoredRow] = [:]
                found.reserveCapacity(rowIDs.count)
                try DirectStatement(db, sql: """
                    SELECT \(StoredRow.selectedColumns), secret FROM item WHERE id IN (SELECT value FROM json_each(?))
                    """, values: [.text(list)]).forEachRow { statement in
                    let row = try StoredRow(statement: statement)
                    found[row.id] = row
                    return true
                }
                return found
            }
            var items: [SyncedItem?] = []
            items.reserveCapacity(rowIDs.count)
            for rowID in rowIDs {
                do throws(KeychainError) {
                    items.append(try syncedItem(of: rows[rowID]))
                } catch .interactionNotAllowed where !items.isEmpty {
                    return items
                } catch .decode where !items.isEmpty {
                    return items
                }
            }
            return items
        }
    }

    /// A row read for sync, opened: nil when it is absent, not synchronizable or ThisDeviceOnly.
    private func syncedItem(of row: StoredRow?) throws(KeychainError) -> SyncedItem? {
        guard let row, row.columns.sync == 1, let accessibility = Accessibility(rawValue: row.columns.protection),
              !accessibility.isThisDeviceOnly else { return nil }
        let record = try open(row)
        return SyncedItem(itemClass: record.itemClass, attributes: record.attributes, secret: try openSecret(row))
    }

    /// Inserts a remote item, or replaces the row with its identity (keeping that row's id
    /// and persistent reference), sealed under the current class keys like any add, with
    /// its attributes as given (`cdat` and `mdat` from the record, not now). Writes no log
    /// entry.
    ///
    /// - Parameter knownLog: the last log sequence the caller has read. When the log holds
    ///   an entry after it for that row, or for the item's identity (a local delete or
    ///   rename of it), the item changed locally since: nothing is written and the result
    ///   is ``SyncApplyResult/changedLocally``.
    /// - Throws: errSecParam for an item sync cannot carry (no secret, not synchronizable,
    ///   ThisDeviceOnly, an attribute its class does not have); errSecInteractionNotAllowed
    ///   while its class key is locked.
    package func applySyncedItem(_ item: SyncedItem, knownLog: Int64) throws(KeychainError) -> SyncApplyResult {
        try applyOne(.item(item), knownLog: knownLog)
    }

    /// Deletes the synchronizable row with a tombstone's identity; writes no log entry. No
    /// file keeps the deleted row once it returns (as for any delete).
    ///
    /// - Parameter knownLog: as for ``applySyncedItem(_:knownLog:)``: a row changed locally
    ///   after it is left as it is (``SyncApplyResult/changedLocally``).
    /// - Returns: ``SyncApplyResult/deleted``, or ``SyncApplyResult/absent`` when no row has
    ///   that identity.
    /// - Throws: errSecParam for content that names no synchronizable item.
    package func applySyncedDeletion(_ tombstone: SyncedItem, knownLog: Int64) throws(KeychainError) -> SyncApplyResult {
        try applyOne(.deletion(tombstone), knownLog: knownLog)
    }

    /// Applies remote changes in order, in one transaction (one synced commit for the whole
    /// batch, where a change at a time pays one each), each by the rules of
    /// ``applySyncedItem(_:knownLog:)`` and ``applySyncedDeletion(_:knownLog:)``, the
    /// `knownLog` rule included. Writes no log entry.
    ///
    /// - Returns: one result per change, in order, for a prefix of `batch`: it ends after the
    ///   first ``SyncApplyResult/changedLocally`` (that change written nothing; the caller
    ///   sends the local change first), and before the first item whose class key is locked
    ///   (nothing of it or after it is written; the caller tries again after an unlock). Every
    ///   change of that prefix is durable when it returns; nothing after it is written.
    /// - Throws: errSecParam for a change sync cannot carry (as the single forms), and
    ///   errSecInteractionNotAllowed when the first item's class key is locked: nothing of
    ///   the batch is written.
    package func applySynced(_ batch: [SyncedChange], knownLog: Int64) throws(KeychainError) -> [SyncApplyResult] {
        guard !batch.isEmpty else { return [] }
        // Checked and hashed before the write lock, as every write prepares its rows.
        var prepared: [PreparedSyncedChange] = []
        prepared.reserveCapacity(batch.count)
        for change in batch { prepared.append(try PreparedSyncedChange(change, hasher: hasher)) }
        return try withCurrentClassKeys { () throws(KeychainError) in
            // The class keys and random bytes of the items, up to the first locked one.
            var sealing: [SealingKeys?] = []
            sealing.reserveCapacity(prepared.count)
            for change in prepared {
                guard let record = change.record else {
                    sealing.append(nil)
                    continue
                }
                do throws(KeychainError) {
                    let (key, epoch) = try classKeys.cipherAndEpoch(for: record.accessibility)
                    // A new row's nonce, and the two AES-GCM nonces.
                    sealing.append((key, epoch, RandomBytes.draw(8 + 2 * 12)))
                } catch .interactionNotAllowed where !sealing.isEmpty {
                    break
                }
            }
            let count = sealing.count
            return try write(during: count == 1 ? "apply a synced change" : "apply \(count) synced changes",
                             supersedes: true) { db -> [SyncApplyResult] in
                var results: [SyncApplyResult] = []
                results.reserveCapacity(count)
                let loggedRowsUpTo = try SyncLogTable.highestRow(in: db)
                try SyncLogTable.quietly(db) {
                    for (change, keys) in zip(prepared, sealing) {
                        let result = try self.apply(change, keys: keys, knownLog: knownLog, loggedRowsUpTo: loggedRowsUpTo, in: db)
                        results.append(result)
                        if result == .changedLocally { break }
                    }
                }
                return results
            }
        }
    }

    /// The identity hash the sync log's entries carry (``SyncLogEntry/identity``) for the item
    /// with `item`'s identity.
    ///
    /// - Throws: errSecParam for content that names no synchronizable item.
    package func syncLogIdentity(of item: SyncedItem) throws(KeychainError) -> Data {
        try PreparedSyncedChange(.deletion(item), hasher: hasher).columns.identity
    }

    /// Whether the sync log holds an entry after `sequence` for the item of `identity`
    /// (``syncLogIdentity(of:)``): whether this keychain changed that item since, locally.
    /// An item the agent placed in a row that holds another one now, with no such entry, left
    /// it through a remote deletion applied here (``applySynced(_:knownLog:)``), not through
    /// a change to send.
    package func syncLogNames(identity: Data, after sequence: Int64) throws(KeychainError) -> Bool {
        try Self.oneStatement(database, during: "read the sync log") { db in
            try SyncLogTable.hasEntry(for: nil, identity: identity, after: sequence, in: db)
        }
    }

    /// One change through the batch: its one result.
    private func applyOne(_ change: SyncedChange, knownLog: Int64) throws(KeychainError) -> SyncApplyResult {
        guard let result = try applySynced([change], knownLog: knownLog).first else {
            // A batch of one yields its result or throws; never nothing.
            throw .notAvailable("a synced change was neither applied nor refused")
        }
        return result
    }

    /// Writes one prepared change in the caller's transaction, with the flag that logs
    /// changes cleared (``SyncLogTable/quietly(_:_:)``). A new row takes an id above
    /// `loggedRowsUpTo`, the highest row the log names: SQLite gives a deleted row's id to
    /// the next insert, and the agent, finding the remote item in the row whose deletion it
    /// has not sent yet, would take it for what the row held and never send the deletion.
    private func apply(_ change: PreparedSyncedChange, keys: SealingKeys?, knownLog: Int64,
                       loggedRowsUpTo: Int64?, in db: Database) throws -> SyncApplyResult {
        let columns = change.columns
        let existing = try columns.itemWithSameIdentity(in: db)
        // A synchronizable item of a ThisDeviceOnly class never leaves this machine (it is not
        // logged nor read for sync): a remote item or tombstone of its identity leaves it alone.
        if let existing, Accessibility(rawValue: existing.protection)?.isThisDeviceOnly ?? false { return .absent }
        if try SyncLogTable.hasEntry(for: existing?.id, identity: columns.identity, after: knownLog, in: db) {
            return .changedLocally
        }
        guard let record = change.record, let secret = change.secret, let keys else {
            guard let existing else { return .absent }
            try DirectStatement(db, sql: "DELETE FROM item WHERE id = ?", values: [.integer(existing.id)]).execute()
            return .deleted
        }
        try KeybagTable.requireEpoch(keys.epoch, in: db)
        let nonce = existing?.nonce ?? RowReference.makeNonce(from: keys.random[0..<8])
        let sealed = try seal(record, secret: secret, nonce: nonce, columns: columns, key: keys.key,
                              random: keys.random[8...])
        let row = NewRow(itemClass: record.itemClass, accessibility: record.accessibility, nonce: nonce, columns: columns,
                         sealedAttributes: sealed.attributes, sealedSecret: sealed.secret, keyEpoch: keys.epoch,
                         lookupPairs: LookupPairTable.hashes(of: record, hasher: hasher),
                         attributeHashes: AttributeIndexTable.hashes(of: record, hasher: hasher))
        if let existing {
            try row.overwrite(rowID: existing.id, in: db)
            return .applied(rowID: existing.id)
        }
        if let loggedRowsUpTo { return .applied(rowID: try row.insert(into: db, above: loggedRowsUpTo)) }
        return .applied(rowID: try row.insert(into: db))
    }
}

/// An item's class key, its epoch, and the random bytes of its row (a new row's nonce, and
/// the two AES-GCM nonces), drawn before the write lock.
private typealias SealingKeys = (key: KeyedAESGCM, epoch: UInt64?, random: [UInt8])

/// A remote change checked and hashed, ready for the write transaction.
private struct PreparedSyncedChange {
    /// The item to write; nil for a deletion.
    let record: ItemRecord?
    let secret: Data?
    let columns: StoredColumns

    init(_ change: SyncedChange, hasher: IndexHasher) throws(KeychainError) {
        switch change {
        case .item(let item):
            guard let secret = item.secret else { throw .param("a synced item without its secret is a tombstone") }
            try item.validate()
            let record = item.record
            self.record = record
            self.secret = secret
            columns = try StoredColumns(record: record, hasher: hasher)
        case .deletion(let tombstone):
            var identity = tombstone
            identity.secret = nil
            try identity.validate()
            record = nil
            secret = nil
            columns = try StoredColumns(record: identity.record, hasher: hasher)
        }
    }
}
