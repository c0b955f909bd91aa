import Foundation
import GRDB
import GRDBSQLite

/// A record sealed for a row of its own, ready to insert: what an add and an import write.
///
/// Sealing happens before the database is entered, so a locked class key fails the write
/// before it can collide with anything (an add to a locked class is
/// errSecInteractionNotAllowed even when it would be a duplicate) and the write lock is held only for the
/// statement.
struct NewRow {
    let itemClass: ItemClass
    /// The record's accessibility, read once: it picks the class key and the password check.
    let accessibility: Accessibility
    /// The random half of the new item's persistent reference.
    let nonce: Data
    let columns: StoredColumns
    let sealedAttributes: Data
    let sealedSecret: Data
    /// The epoch of the class key it is sealed under (nil for class D), which the
    /// transaction that inserts it must find current (see ``KeybagTable/requireEpoch(_:in:)``).
    let keyEpoch: UInt64?
    /// The hashes of its lookup attribute pairs (``LookupPairTable``), written with it.
    let lookupPairs: [Data]
    /// The hashes of its indexed attributes (``AttributeIndexTable``), written with it.
    let attributeHashes: [Data]

    /// Inserts the row and returns its id. A live item with the same identity makes the
    /// database's UNIQUE index refuse it (errSecDuplicateItem).
    func insert(into db: Database) throws -> Int64 {
        try execute(in: db, ifAbsent: false)
        let rowID = sqlite3_last_insert_rowid(db.sqliteConnection)
        try writeIndexEntries(forRow: rowID, replacing: false, in: db)
        return rowID
    }

    /// Inserts the row with an id above `floor` (and above every row's), and returns that id:
    /// what a remote change applied quietly inserts while the sync log names rows up to
    /// `floor`, whose ids SQLite would otherwise give again (see
    /// ``SyncLogTable/highestRow(in:)``).
    func insert(into db: Database, above floor: Int64) throws -> Int64 {
        try execute(in: db, ifAbsent: false, above: floor)
        let rowID = sqlite3_last_insert_rowid(db.sqliteConnection)
        try writeIndexEntries(forRow: rowID, replacing: false, in: db)
        return rowID
    }

    /// Inserts the row unless an item with the same identity exists; its id, or nil.
    func insertIfAbsent(into db: Database) throws -> Int64? {
        guard try execute(in: db, ifAbsent: true) else { return nil }
        let rowID = sqlite3_last_insert_rowid(db.sqliteConnection)
        try writeIndexEntries(forRow: rowID, replacing: false, in: db)
        return rowID
    }

    /// Deletes the live item with this row's identity; whether there was one.
    func deleteItemWithSameIdentity(in db: Database) throws -> Bool {
        try DirectStatement(db, sql: deleteSameIdentitySQL, values: columns.sameIdentityValues).execute() > 0
    }

    var deleteSameIdentitySQL: String { "DELETE FROM item WHERE \(columns.sameIdentityCondition)" }

    /// Writes this row over row `rowID`, whose nonce it must have been sealed with: every
    /// column but the id and the nonce, so the item keeps its persistent reference. Unlike
    /// an insert, it leaves the check of the key epoch to the caller, which has made it.
    func overwrite(rowID: Int64, in db: Database) throws {
        try DirectStatement(db, sql: """
            UPDATE item SET sync = ?, protection = ?, identity = ?, agrp = ?, acct = ?, svce = ?,
            srvr = ?, atag = ?, klbl = ?, pkhh = ?, attributes = ?, secret = ?, paired = 1, indexed = 1 WHERE id = ?
            """, values: [
                .integer(Int64(columns.sync)), .text(columns.protection), .blob(columns.identity),
                .blob(columns.accessGroup), .blob(columns.account), .blob(columns.service),
                .blob(columns.server), .blob(columns.keyLookup?.applicationTag),
                .blob(columns.keyLookup?.applicationLabel), .blob(columns.keyLookup?.publicKeyHash),
                .blob(sealedAttributes), .blob(sealedSecret), .integer(rowID),
            ]).execute()
        try writeIndexEntries(forRow: rowID, replacing: true, in: db)
    }

    /// Writes the row's entries in the index tables, in the transaction that writes the row:
    /// every write of an item row (add, import, update, sync) comes through here.
    private func writeIndexEntries(forRow rowID: Int64, replacing: Bool, in db: Database) throws {
        try LookupPairTable.entries.write(lookupPairs, forRow: rowID, replacing: replacing, in: db)
        try AttributeIndexTable.entries.write(attributeHashes, forRow: rowID, replacing: replacing, in: db)
    }

    /// The persistent reference of the row once inserted with `rowID`.
    func reference(rowID: Int64) -> PersistentReference {
        RowReference.reference(itemClass: itemClass, rowID: rowID, nonce: nonce)
    }

    /// Runs the INSERT, after checking that the row's class key is still current (a
    /// password change in another process may have retired it); whether it inserted.
    @discardableResult
    private func execute(in db: Database, ifAbsent: Bool, above floor: Int64? = nil) throws -> Bool {
        try KeybagTable.requireEpoch(keyEpoch, in: db)
        var values: [SQLValue] = [
            .blob(nonce), .integer(Int64(columns.classCode)), .integer(Int64(columns.sync)), .text(columns.protection),
            .blob(columns.identity), .blob(columns.accessGroup), .blob(columns.account), .blob(columns.service),
            .blob(columns.server), .blob(columns.keyLookup?.applicationTag), .blob(columns.keyLookup?.applicationLabel),
            .blob(columns.keyLookup?.publicKeyHash), .blob(sealedAttributes), .blob(sealedSecret),
        ]
        let sql: String
        if let floor {
            values.append(.integer(floor))
            sql = Self.insertAboveSQL
        } else {
            // `ON CONFLICT DO NOTHING` covers the UNIQUE indexes only: a broken CHECK still fails.
            sql = ifAbsent ? Self.insertIfAbsentSQL : Self.insertSQL
        }
        return try DirectStatement(db, sql: sql, values: values).execute() > 0
    }

    private static let insertSQL = """
        INSERT INTO item (nonce, class, sync, protection, identity, agrp, acct, svce, srvr, atag, klbl, pkhh,
                          attributes, secret, paired, indexed)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 1)
        """
    private static let insertIfAbsentSQL = insertSQL + " ON CONFLICT DO NOTHING"
    /// The id is the last parameter: above it and above every row's.
    private static let insertAboveSQL = """
        INSERT INTO item (nonce, class, sync, protection, identity, agrp, acct, svce, srvr, atag, klbl, pkhh,
                          attributes, secret, paired, indexed, id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 1, max(?, coalesce((SELECT max(id) FROM item), 0)) + 1)
        """
}

extension KeychainStore {
    /// Seals a record and its secret under its class key, with a new row nonce.
    /// A locked class is errSecInteractionNotAllowed.
    func newRow(_ record: ItemRecord, secret: Data) throws(KeychainError) -> NewRow {
        // One draw for the row's nonce and the two AES-GCM nonces.
        let random = RandomBytes.draw(8 + 2 * 12)
        let nonce = RowReference.makeNonce(from: random[0..<8])
        let accessibility = record.accessibility
        let columns = try StoredColumns(record: record, hasher: hasher, accessibility: accessibility)
        let (key, epoch) = try classKeys.cipherAndEpoch(for: accessibility)
        let sealed = try seal(record, secret: secret, nonce: nonce, columns: columns, key: key, random: random[8...])
        return NewRow(itemClass: record.itemClass, accessibility: accessibility, nonce: nonce, columns: columns,
                      sealedAttributes: sealed.attributes, sealedSecret: sealed.secret, keyEpoch: epoch,
                      lookupPairs: LookupPairTable.hashes(of: record, hasher: hasher),
                      attributeHashes: AttributeIndexTable.hashes(of: record, hasher: hasher))
    }
}
