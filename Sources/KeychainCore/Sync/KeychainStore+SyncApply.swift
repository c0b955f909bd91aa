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
                guard let row = found, row.columns.sync == 1,
                      let accessibility = Accessibility(rawValue: row.columns.protection),
                      !accessibility.isThisDeviceOnly else { return nil }
                let record = try self.open(row)
                return SyncedItem(itemClass: record.itemClass, attributes: record.attributes, secret: try self.openSecret(row))
            }
        }
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
        guard let secret = item.secret else { throw .param("a synced item without its secret is a tombstone") }
        try item.validate()
        let record = item.record
        let columns = try StoredColumns(record: record, hasher: hasher)
        return try withCurrentClassKeys { () throws(KeychainError) in
            let (key, epoch) = try classKeys.keyAndEpoch(for: record.accessibility)
            // Drawn before the write lock: a new row's nonce, and the two AES-GCM nonces.
            let random = RandomBytes.draw(8 + 2 * 12)
            return try write(during: "apply a synced item", supersedes: true) { db -> SyncApplyResult in
                let existing = try columns.itemWithSameIdentity(in: db)
                if try SyncLogTable.hasEntry(for: existing?.id, identity: columns.identity, after: knownLog, in: db) {
                    return .changedLocally
                }
                try KeybagTable.requireEpoch(epoch, in: db)
                let nonce = existing?.nonce ?? RowReference.makeNonce(from: random[0..<8])
                let sealed = try self.seal(record, secret: secret, nonce: nonce, columns: columns, key: key,
                                           random: random[8...])
                let row = NewRow(itemClass: record.itemClass, nonce: nonce, columns: columns,
                                 sealedAttributes: sealed.attributes, sealedSecret: sealed.secret, keyEpoch: epoch)
                return try SyncLogTable.quietly(db) {
                    if let existing {
                        try row.overwrite(rowID: existing.id, in: db)
                        return .applied(rowID: existing.id)
                    }
                    return .applied(rowID: try row.insert(into: db))
                }
            }
        }
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
        var identity = tombstone
        identity.secret = nil
        try identity.validate()
        let columns = try StoredColumns(record: identity.record, hasher: hasher)
        return try write(during: "apply a synced deletion", supersedes: true) { db -> SyncApplyResult in
            let existing = try columns.itemWithSameIdentity(in: db)
            if try SyncLogTable.hasEntry(for: existing?.id, identity: columns.identity, after: knownLog, in: db) {
                return .changedLocally
            }
            guard let existing else { return .absent }
            try SyncLogTable.quietly(db) {
                try DirectStatement(db, sql: "DELETE FROM item WHERE id = ?", values: [.integer(existing.id)]).execute()
            }
            return .deleted
        }
    }
}
