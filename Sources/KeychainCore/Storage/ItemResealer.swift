import Crypto
import Foundation
import GRDB
import GRDBSQLite

/// Seals the items of the class A and C protection classes again under new class keys, in
/// the caller's transaction: what a password change does, so that the keys an old password
/// (or none) protected open nothing once it is replaced.
///
/// It reads the rows in batches by id, so memory stays bounded whatever the item count. A
/// row that does not open under its old key (damaged, or bound to another machine) is left
/// as it is: it was unreadable before and stays so.
struct ItemResealer {
    let db: Database
    let oldKeys: [Accessibility: SymmetricKey]
    let newKeys: [Accessibility: SymmetricKey]

    private static let batchSize = 256
    private static let selectSQL = """
        SELECT \(StoredRow.selectedColumns), secret FROM item
        WHERE id > ? AND protection IN (\(Accessibility.lockedClasses.map { "'\($0.rawValue)'" }.joined(separator: ", ")))
        ORDER BY id LIMIT \(batchSize)
        """

    /// Reseals every row of the classes in `newKeys` that opens under its old key. Not
    /// logged for sync: the items do not change.
    func resealAll() throws {
        try SyncLogTable.quietly(db) { try resealEveryRow() }
    }

    private func resealEveryRow() throws {
        var after: Int64 = 0
        while true {
            var rows: [StoredRow] = []
            var lastID: Int64?
            try DirectStatement(db, sql: Self.selectSQL, values: [.integer(after)]).forEachRow { statement in
                lastID = sqlite3_column_int64(statement, 0)
                // A row whose clear columns are damaged is left as it is.
                if let row = try? StoredRow(statement: statement) { rows.append(row) }
                return true
            }
            guard let lastID else { return }
            after = lastID
            for row in rows { try reseal(row) }
        }
    }

    private func reseal(_ row: StoredRow) throws {
        guard let accessibility = Accessibility(rawValue: row.columns.protection),
              let oldKey = oldKeys[accessibility], let newKey = newKeys[accessibility],
              let old = KeyedAESGCM(key: oldKey) else { return }
        guard var attributes = try? ItemSealing.open(row.sealedAttributes, part: .attributes, columns: row.columns,
                                                     rowNonce: row.nonce, key: old) else { return }
        var secret: Data?
        var guardFlags: Int64?
        if let sealed = row.sealedSecret {
            guard let opened = try? ItemSealing.openSecret(sealed, columns: row.columns, rowNonce: row.nonce, key: old)
            else { return }
            (secret, guardFlags) = opened
        }
        defer {
            attributes.zeroize()
            secret?.zeroize()
        }
        guard let new = KeyedAESGCM(key: newKey) else { throw KeychainError.io("sealing failed") }
        let (resealedAttributes, resealedSecret) = try ItemSealing.seal(
            attributes: attributes, secret: secret, guardFlags: guardFlags, columns: row.columns, rowNonce: row.nonce,
            key: new)
        try DirectStatement(db, sql: "UPDATE item SET attributes = ?, secret = ? WHERE id = ?", values: [
            .blob(resealedAttributes), .blob(resealedSecret), .integer(row.id),
        ]).execute()
    }
}
