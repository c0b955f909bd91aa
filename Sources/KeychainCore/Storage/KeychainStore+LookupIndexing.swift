import Foundation
import GRDB
import GRDBSQLite

/// Indexes the rows an older format wrote, which a newer database holds marked not indexed:
/// the lookup columns (``KeyLookupColumns``) of the keys and certificates a library of
/// format 3 wrote, and the lookup pairs (``LookupPairTable``) of the generic passwords a
/// library of format 5 or older wrote.
///
/// Their attributes are sealed, so only the class key can index them: an unlock, and the
/// first search in a process that meets such a row, index every such row of the protection
/// classes whose keys the process holds, in batches of short transactions. Until then, and
/// for a class that stays locked, searches still find them: they read the rows not indexed
/// along with the indexed ones and compare after opening them. A key or certificate is
/// sealed again (as an update seals it), because the associated data covers its new
/// columns; a generic password's pairs are an index only, written beside it.
extension KeychainStore {
    private static let lookupIndexingBatch = 256

    /// Indexes the rows not indexed yet of the protection classes whose keys this process
    /// holds and has not indexed before. A failure is logged and left for later: the call
    /// that asked has its answer already.
    func indexRowsOfOlderFormats() {
        guard let protections = try? protectionsNotIndexed(), !protections.isEmpty else { return }
        let open = protections.filter { protection in
            Accessibility(rawValue: protection).map { (try? classKeys.keyAndEpoch(for: $0)) != nil } ?? false
        }
        let toIndex = lookupIndexedProtections.withLock { done in open.filter { done.insert($0).inserted } }
        guard !toIndex.isEmpty else { return }
        do {
            var after: Int64 = 0
            while let last = try indexBatch(protections: toIndex, after: after) { after = last }
        } catch {
            keychainLogger.warning("keys of an older format were not indexed", metadata: ["reason": "\(error)"])
        }
    }

    /// The protection classes of the rows not indexed yet: none, once every row is, which
    /// the lookup indexes and the partial index of generic passwords not paired tell at once.
    private func protectionsNotIndexed() throws(KeychainError) -> Set<String> {
        try Self.oneStatement(database, during: "index items") { db in
            Set(try String.fetchAll(db, sql: """
                SELECT protection FROM item WHERE atag = X'' AND class = \(ItemClass.key.storageCode)
                UNION SELECT protection FROM item WHERE pkhh = X'' AND class = \(ItemClass.certificate.storageCode)
                UNION SELECT protection FROM item WHERE class = \(ItemClass.genericPassword.storageCode) AND paired = 0
                """))
        }
    }

    /// Indexes the rows not indexed after row `after`, up to a batch; the last row id read,
    /// or nil when none was left.
    private func indexBatch(protections: Set<String>, after: Int64) throws(KeychainError) -> Int64? {
        try write(during: "index items", supersedes: true) { db -> Int64? in
            var rows: [StoredRow] = []
            var last: Int64?
            // Through the lookup indexes, which hold the mark of a row not indexed.
            let sql = """
                SELECT * FROM (
                    SELECT \(StoredRow.selectedColumns), secret FROM item
                    WHERE atag = X'' AND class = \(ItemClass.key.storageCode) AND id > ?
                    UNION ALL
                    SELECT \(StoredRow.selectedColumns), secret FROM item
                    WHERE pkhh = X'' AND class = \(ItemClass.certificate.storageCode) AND id > ?
                    UNION ALL
                    SELECT \(StoredRow.selectedColumns), secret FROM item
                    WHERE class = \(ItemClass.genericPassword.storageCode) AND paired = 0 AND id > ?
                ) ORDER BY id LIMIT \(Self.lookupIndexingBatch)
                """
            try DirectStatement(db, sql: sql, values: [.integer(after), .integer(after), .integer(after)]).forEachRow { statement in
                last = sqlite3_column_int64(statement, 0)
                // A row whose clear columns are damaged is left as it is.
                if let row = try? StoredRow(statement: statement) { rows.append(row) }
                return true
            }
            // Not logged for sync: the items do not change.
            try SyncLogTable.quietly(db) {
                for row in rows where protections.contains(row.columns.protection) {
                    if row.columns.classCode == ItemClass.genericPassword.storageCode {
                        try indexLookupPairs(of: row, in: db)
                    } else if !row.columns.isIndexed {
                        try indexLookupColumns(of: row, in: db)
                    }
                }
            }
            return last
        }
    }

    /// Seals a row again with its lookup columns. A row that does not open (damaged, or
    /// bound to another machine) is left as it is: it was unreadable before and stays so.
    private func indexLookupColumns(of row: StoredRow, in db: Database) throws {
        guard let accessibility = Accessibility(rawValue: row.columns.protection),
              let current = try? classKeys.keyAndEpoch(for: accessibility),
              let record = try? open(row), var secret = try? openSecret(row),
              let keyLookup = try? KeyLookupColumns(record: record, hasher: hasher) else { return }
        defer { secret.zeroize() }
        // Only the lookup columns change: the others are the row's own, which opening it proved.
        let columns = row.columns.with(keyLookup: keyLookup)
        try KeybagTable.requireEpoch(current.epoch, in: db)
        let sealed = try seal(record, secret: secret, nonce: row.nonce, columns: columns, key: current.key,
                              random: RandomBytes.draw(2 * 12)[...])
        try DirectStatement(db, sql: "UPDATE item SET atag = ?, klbl = ?, pkhh = ?, attributes = ?, secret = ? WHERE id = ?",
                            values: [
                                .blob(keyLookup.applicationTag), .blob(keyLookup.applicationLabel),
                                .blob(keyLookup.publicKeyHash), .blob(sealed.attributes), .blob(sealed.secret),
                                .integer(row.id),
                            ]).execute()
    }

    /// Writes the pairs of a generic password and marks it indexed. A row that does not
    /// open is left as it is, as in ``indexLookupColumns(of:in:)``.
    private func indexLookupPairs(of row: StoredRow, in db: Database) throws {
        guard let record = try? open(row) else { return }
        try LookupPairTable.write(LookupPairTable.hashes(of: record, hasher: hasher), forRow: row.id, replacing: true, in: db)
        try LookupPairTable.markIndexed(row.id, in: db)
    }
}
