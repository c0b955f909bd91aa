import Foundation
import GRDB
import GRDBSQLite

/// A value bound to a parameter of a statement run through ``DirectStatement``.
enum SQLValue {
    case integer(Int64)
    case text(String)
    /// A blob; nil is SQL NULL.
    case blob(Data?)

    /// The same value for GRDB's own API, which tests use to run EXPLAIN.
    var databaseValue: DatabaseValue {
        switch self {
        case .integer(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .blob(let value): value?.databaseValue ?? .null
        }
    }
}

/// Runs one of GRDB's cached statements through SQLite's own API: binds typed values and
/// steps it. Every call of the keychain runs one or two short statements, and GRDB's
/// generic arguments, its per-argument closures and its observation bookkeeping cost more
/// than SQLite's own work for them (measured with callgrind: 16,000 instructions of an
/// add's 245,000). The connection stays GRDB's: statements come from its cache, and none
/// of these opens or ends a transaction, so GRDB's view of the connection stays true.
struct DirectStatement {
    let db: Database
    let statement: SQLiteStatement

    /// The cached statement for `sql`, with `values` bound to its parameters in order.
    init(_ db: Database, sql: String, values: [SQLValue]) throws {
        self.db = db
        statement = try db.cachedStatement(sql: sql).sqliteStatement
        sqlite3_reset(statement)
        // Values bound to every parameter replace the last ones: only a statement given
        // fewer must drop those it would otherwise keep.
        if values.count < sqlite3_bind_parameter_count(statement) { sqlite3_clear_bindings(statement) }
        for (index, value) in values.enumerated() {
            let position = CInt(index + 1)
            let code: CInt = switch value {
            case .integer(let integer):
                sqlite3_bind_int64(statement, position, integer)
            case .text(let text):
                sqlite3_bind_text(statement, position, text, -1, Self.transient)
            case .blob(nil):
                sqlite3_bind_null(statement, position)
            case .blob(let data?):
                data.withUnsafeBytes { bytes in
                    // A zero-length blob, not NULL: SQLite reads a nil pointer as NULL.
                    sqlite3_bind_blob(statement, position, bytes.baseAddress ?? Self.emptyBlob,
                                      CInt(bytes.count), Self.transient)
                }
            }
            guard code == SQLITE_OK else { throw error(code) }
        }
    }

    /// Steps a statement that returns no rows to its end; how many rows it changed.
    @discardableResult
    func execute() throws -> Int {
        defer { reset() }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else { throw error(code) }
        return Int(sqlite3_changes(db.sqliteConnection))
    }

    /// Calls `body` for each row until it returns false.
    func forEachRow(_ body: (SQLiteStatement) throws -> Bool) throws {
        defer { reset() }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code) }
            guard try body(statement) else { return }
        }
    }

    /// Ends the statement's read or write, and drops its copies of the values, as GRDB
    /// expects to find its cached statements.
    private func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    /// The error of a failed step, with SQLite's extended code (a UNIQUE violation is
    /// errSecDuplicateItem) and its message, which never holds bound values.
    private func error(_ code: CInt) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(db.sqliteConnection)),
                      message: db.lastErrorMessage)
    }

    /// SQLite's SQLITE_TRANSIENT: it copies the value before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// Where an empty blob points: never read, as its length is zero.
    nonisolated(unsafe) private static let emptyBlob = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
}
