import Foundation
import GRDB
import GRDBSQLite

/// Fills the lookup columns (``KeyLookupColumns``) of the keys and certificates that a
/// library of format 3 wrote, which a format 4 database holds marked not indexed.
///
/// Their attributes are sealed, so only the class key can fill them: an unlock, and the
/// first search in a process that meets such a row, index every such row of the protection
/// classes whose keys the process holds, in batches of short transactions. Until then, and
/// for a class that stays locked, searches still find them: they read the rows not indexed
/// along with the indexed ones and compare after opening them. Each row is sealed again
/// (as an update seals it), because the associated data covers the new columns.
extension KeychainStore {
    private static let lookupIndexingBatch = 256

    /// Indexes the rows not indexed yet of the protection classes whose keys this process
    /// holds and has not indexed before. A failure is logged and left for later: the call
    /// that asked has its answer already.
    func indexRowsWrittenBeforeLookupColumns() {
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
    /// the lookup indexes tell at once.
    private func protectionsNotIndexed() throws(KeychainError) -> Set<String> {
        try Self.oneStatement(database, during: "index keys") { db in
            Set(try String.fetchAll(db, sql: """
                SELECT protection FROM item WHERE atag = X'' AND class = \(ItemClass.key.storageCode)
                UNION SELECT protection FROM item WHERE pkhh = X'' AND class = \(ItemClass.certificate.storageCode)
                """))
        }
    }

    /// Indexes the rows not indexed after row `after`, up to a batch; the last row id read,
    /// or nil when none was left.
    private func indexBatch(protections: Set<String>, after: Int64) throws(KeychainError) -> Int64? {
        try write(during: "index keys", supersedes: true) { db -> Int64? in
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
                ) ORDER BY id LIMIT \(Self.lookupIndexingBatch)
                """
            try DirectStatement(db, sql: sql, values: [.integer(after), .integer(after)]).forEachRow { statement in
                last = sqlite3_column_int64(statement, 0)
                // A row whose clear columns are damaged is left as it is.
                if let row = try? StoredRow(statement: statement) { rows.append(row) }
                return true
            }
            // Not logged for sync: the items do not change.
            try SyncLogTable.quietly(db) {
                for row in rows where !row.columns.isIndexed && protections.contains(row.columns.protection) {
                    try indexLookupColumns(of: row, in: db)
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
}
