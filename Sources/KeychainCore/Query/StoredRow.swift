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
        let (blobs, ranges) = Self.sharedBlobColumns(of: statement)
        func shared(_ column: CInt) -> Data? { ranges[Self.sharedSlot(of: column)].map { blobs[$0] } }
        guard let nonce = blob(1), nonce.count == 8, let protection = sqlite3_column_text(statement, 4),
              let identity = shared(5), let accessGroup = shared(6), let sealedAttributes = shared(14)
        else { throw .decode }
        id = sqlite3_column_int64(statement, 0)
        self.nonce = nonce
        let classCode = Int(sqlite3_column_int64(statement, 2))
        columns = StoredColumns(
            classCode: classCode,
            sync: Int(sqlite3_column_int64(statement, 3)),
            protection: String(cString: protection),
            identity: identity, accessGroup: accessGroup,
            account: shared(7), service: shared(8), server: shared(9),
            keyLookup: KeyLookupColumns(classCode: classCode, applicationTag: shared(10), applicationLabel: shared(11),
                                        publicKeyHash: shared(12)))
        self.sealedAttributes = sealedAttributes
        attributesIndexed = sqlite3_column_int64(statement, 13) != 0
        sealedSecret = shared(15)
    }

    /// The blob columns read into one buffer: the hashed ones (identity, access group,
    /// account, service, server, then the key lookup columns, 5 to 12), then the sealed
    /// attributes and the sealed secret (14 and 15), in ``selectedColumns``'s order.
    private static let sharedColumnCount = 10 // the size of the InlineArray below

    private static func sharedSlot(of column: CInt) -> Int {
        Int(column <= 12 ? column - 5 : column - 6)
    }

    private static func sharedColumn(at slot: Int) -> CInt {
        CInt(slot < 8 ? slot + 5 : slot + 6)
    }

    /// The blob columns of the current row, copied into one buffer, and where each is in it
    /// (nil for NULL): ``init(statement:)`` hands them out as slices of it, since a find
    /// reads six or more and a `Data` of its own for each costs an allocation and a release
    /// apiece. They are hashes and sealed blobs, never plaintext.
    private static func sharedBlobColumns(of statement: SQLiteStatement) -> (Data, InlineArray<10, Range<Int>?>) {
        var ranges = InlineArray<10, Range<Int>?>(repeating: nil)
        // Each blob's bytes, as SQLite keeps them until the statement steps or resets (asking
        // for another column's does not move them): the copy below asks for none again.
        var sources = InlineArray<10, UnsafeRawPointer?>(repeating: nil)
        var total = 0
        for slot in 0..<sharedColumnCount {
            let column = sharedColumn(at: slot)
            guard sqlite3_column_type(statement, column) != SQLITE_NULL else { continue }
            // The blob's pointer first: asking it may convert the value, which sets its length.
            sources[slot] = sqlite3_column_blob(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            ranges[slot] = total..<(total + count)
            total += count
        }
        guard total > 0 else { return (Data(), ranges) }
        // Out of memory: no column, which the caller reports as a damaged row.
        guard let target = malloc(total) else { return (Data(), InlineArray(repeating: nil)) }
        for slot in 0..<sharedColumnCount {
            guard let range = ranges[slot], !range.isEmpty, let source = sources[slot] else { continue }
            target.advanced(by: range.lowerBound).copyMemory(from: source, byteCount: range.count)
        }
        return (Data(bytesNoCopy: target, count: total, deallocator: .free), ranges)
    }
}
