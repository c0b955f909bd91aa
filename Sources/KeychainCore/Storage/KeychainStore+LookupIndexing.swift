import Foundation
import GRDB
import GRDBSQLite

/// Indexes the rows an older format wrote, which a newer database holds marked not indexed:
/// the lookup columns (``KeyLookupColumns``) of the keys and certificates a library of
/// format 3 wrote, the lookup pairs (``LookupPairTable``) of the generic passwords a
/// library of format 5 or older wrote, and the indexed attributes (``AttributeIndexTable``)
/// of every item a library of format 6 or older wrote. Every such row has `indexed` 0 (no
/// older library knows the column, and it is not set until the row is indexed in every
/// way), so one partial index finds them all.
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
    /// the partial index of the rows not indexed tells at once.
    private func protectionsNotIndexed() throws(KeychainError) -> Set<String> {
        try Self.oneStatement(database, during: "index items") { db in
            Set(try String.fetchAll(db, sql: "SELECT DISTINCT protection FROM item WHERE indexed = 0"))
        }
    }

    /// Indexes the rows not indexed after row `after`, up to a batch; the last row id read,
    /// or nil when none was left.
    private func indexBatch(protections: Set<String>, after: Int64) throws(KeychainError) -> Int64? {
        try write(during: "index items", supersedes: true) { db -> Int64? in
            var rows: [StoredRow] = []
            var last: Int64?
            // Through the partial index of the rows not indexed.
            let sql = """
                SELECT \(StoredRow.selectedColumns), secret FROM item
                WHERE indexed = 0 AND id > ? ORDER BY id LIMIT \(Self.lookupIndexingBatch)
                """
            try DirectStatement(db, sql: sql, values: [.integer(after)]).forEachRow { statement in
                last = sqlite3_column_int64(statement, 0)
                // A row whose clear columns are damaged is left as it is.
                if let row = try? StoredRow(statement: statement) { rows.append(row) }
                return true
            }
            // Not logged for sync: the items do not change.
            try SyncLogTable.quietly(db) {
                for row in rows where protections.contains(row.columns.protection) {
                    // Opened once more by each step: this runs once per row in a keychain's life.
                    guard let record = try? open(row) else { continue }
                    if row.columns.classCode == ItemClass.genericPassword.storageCode {
                        try indexLookupPairs(of: row, record: record, in: db)
                    } else if !row.columns.isIndexed {
                        guard try indexLookupColumns(of: row, in: db) else { continue }
                    }
                    try AttributeIndexTable.entries.write(AttributeIndexTable.hashes(of: record, hasher: hasher), forRow: row.id,
                                                  replacing: true, in: db)
                    try AttributeIndexTable.entries.markIndexed(row.id, in: db)
                }
            }
            return last
        }
    }

    /// Seals a row again with its lookup columns; whether it did. A row that does not open
    /// (damaged, or bound to another machine) is left as it is: it was unreadable before and
    /// stays so.
    private func indexLookupColumns(of row: StoredRow, in db: Database) throws -> Bool {
        guard let accessibility = Accessibility(rawValue: row.columns.protection),
              let current = try? classKeys.cipherAndEpoch(for: accessibility),
              let record = try? open(row), var secret = try? openSecret(row),
              let keyLookup = try? KeyLookupColumns(record: record, hasher: hasher) else { return false }
        defer { secret.zeroize() }
        // Only the lookup columns change: the others are the row's own, which opening it proved.
        let columns = row.columns.with(keyLookup: keyLookup)
        try KeybagTable.requireEpoch(current.epoch, in: db)
        let sealed = try seal(record, secret: secret, nonce: row.nonce, columns: columns, key: current.cipher,
                              random: RandomBytes.draw(2 * 12)[...])
        try DirectStatement(db, sql: "UPDATE item SET atag = ?, klbl = ?, pkhh = ?, attributes = ?, secret = ? WHERE id = ?",
                            values: [
                                .blob(keyLookup.applicationTag), .blob(keyLookup.applicationLabel),
                                .blob(keyLookup.publicKeyHash), .blob(sealed.attributes), .blob(sealed.secret),
                                .integer(row.id),
                            ]).execute()
        return true
    }

    /// Writes the pairs of a generic password, opened as `record`, and marks it paired.
    private func indexLookupPairs(of row: StoredRow, record: ItemRecord, in db: Database) throws {
        try LookupPairTable.entries.write(LookupPairTable.hashes(of: record, hasher: hasher), forRow: row.id, replacing: true, in: db)
        try LookupPairTable.entries.markIndexed(row.id, in: db)
    }
}
