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
        let (hashes, ranges) = Self.hashedColumns(of: statement)
        func hash(_ column: CInt) -> Data? { ranges[Int(column - Self.firstHashedColumn)].map { hashes[$0] } }
        guard let nonce = blob(1), nonce.count == 8, let protection = sqlite3_column_text(statement, 4),
              let identity = hash(5), let accessGroup = hash(6), let sealedAttributes = blob(14)
        else { throw .decode }
        id = sqlite3_column_int64(statement, 0)
        self.nonce = nonce
        let classCode = Int(sqlite3_column_int64(statement, 2))
        columns = StoredColumns(
            classCode: classCode,
            sync: Int(sqlite3_column_int64(statement, 3)),
            protection: String(cString: protection),
            identity: identity, accessGroup: accessGroup,
            account: hash(7), service: hash(8), server: hash(9),
            keyLookup: KeyLookupColumns(classCode: classCode, applicationTag: hash(10), applicationLabel: hash(11),
                                        publicKeyHash: hash(12)))
        self.sealedAttributes = sealedAttributes
        attributesIndexed = sqlite3_column_int64(statement, 13) != 0
        sealedSecret = blob(15)
    }

    /// The hashed columns (identity, access group, account, service, server, then the key
    /// lookup columns) are consecutive in ``selectedColumns``, from this one to column 12.
    private static let firstHashedColumn: CInt = 5
    private static let hashedColumnCount = 8 // the size of the InlineArrays below

    /// The hashed columns of the current row, copied into one buffer, and where each is in
    /// it (nil for NULL): ``init(statement:)`` hands them out as slices of it, since a find
    /// reads four or more and a `Data` of its own for each costs an allocation and a release
    /// apiece. They are hashes, never secrets.
    private static func hashedColumns(of statement: SQLiteStatement) -> (Data, InlineArray<8, Range<Int>?>) {
        var ranges = InlineArray<8, Range<Int>?>(repeating: nil)
        var total = 0
        for offset in 0..<hashedColumnCount {
            let column = firstHashedColumn + CInt(offset)
            guard sqlite3_column_type(statement, column) != SQLITE_NULL else { continue }
            // The blob's pointer first: asking it may convert the value, which sets its length.
            _ = sqlite3_column_blob(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            ranges[offset] = total..<(total + count)
            total += count
        }
        guard total > 0 else { return (Data(), ranges) }
        // Out of memory: no column, which the caller reports as a damaged row.
        guard let target = malloc(total) else { return (Data(), InlineArray(repeating: nil)) }
        for offset in 0..<hashedColumnCount {
            guard let range = ranges[offset], !range.isEmpty,
                  let source = sqlite3_column_blob(statement, firstHashedColumn + CInt(offset)) else { continue }
            target.advanced(by: range.lowerBound).copyMemory(from: source, byteCount: range.count)
        }
        return (Data(bytesNoCopy: target, count: total, deallocator: .free), ranges)
    }
}
