import Foundation
import GRDB
import GRDBSQLite

/// A row of the `item` table as read, before anything is opened.
struct StoredRow {
    let id: Int64
    /// The random half of the item's persistent reference (see ``RowReference``).
    let nonce: Data
    let columns: StoredColumns
    let sealedAttributes: Data
    let sealedSecret: Data?
    /// Whether the row's entries in ``AttributeIndexTable`` are written: false for a row of
    /// an older format until its class key opens it.
    let attributesIndexed: Bool

    /// The columns that ``PlanStatements`` select, in their order.
    static let selectedColumns = "id, nonce, class, sync, protection, identity, agrp, acct, svce, srvr, atag, klbl, pkhh, indexed, attributes"

    /// Reads the current row of a statement that selects ``selectedColumns`` and then the
    /// secret (or NULL). errSecDecode for a row whose clear columns are damaged.
    init(statement: SQLiteStatement) throws(KeychainError) {
        func blob(_ column: CInt) -> Data? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : Data(sqliteStatement: statement, index: column)
        }
        guard let nonce = blob(1), nonce.count == 8, let protection = sqlite3_column_text(statement, 4),
              let identity = blob(5), let accessGroup = blob(6), let sealedAttributes = blob(14)
        else { throw .decode }
        id = sqlite3_column_int64(statement, 0)
        self.nonce = nonce
        let classCode = Int(sqlite3_column_int64(statement, 2))
        columns = StoredColumns(
            classCode: classCode,
            sync: Int(sqlite3_column_int64(statement, 3)),
            protection: String(cString: protection),
            identity: identity, accessGroup: accessGroup,
            account: blob(7), service: blob(8), server: blob(9),
            keyLookup: KeyLookupColumns(classCode: classCode, applicationTag: blob(10), applicationLabel: blob(11),
                                        publicKeyHash: blob(12)))
        self.sealedAttributes = sealedAttributes
        attributesIndexed = sqlite3_column_int64(statement, 13) != 0
        sealedSecret = blob(15)
    }
}
