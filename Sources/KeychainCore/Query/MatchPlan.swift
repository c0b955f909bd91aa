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
}

/// How a query is answered: SQL equality on the hashed and clear columns (an index lookup),
/// then, for the attributes that have no column, a comparison after opening the record.
struct MatchPlan {
    let whereClause: String
    let arguments: [DatabaseValueConvertible?]
    /// Attributes compared after opening the record, with the canonical bytes to equal.
    let residual: [(attribute: Attribute, bytes: Data)]
    /// A query that can match nothing (a persistent reference of another class, or an
    /// identity, which has no stored form).
    let matchesNothing: Bool

    init(query: ItemQuery, caller: CallerIdentity, hasher: IndexHasher) throws(KeychainError) {
        let schema = query.itemClass.schema
        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible?] = []
        var residual: [(Attribute, Data)] = []
        // nil: every group, for a caller that holds `*`.
        var groups: [String]? = caller.holdsEveryGroup ? nil : caller.accessGroups
        for (code, value) in query.attributes.sorted(by: { $0.key < $1.key }) {
            let attribute = try schema.attribute(code)
            let bytes = try attribute.canonicalBytes(of: value)
            switch attribute.kind {
            case .ignored, .synchronizable:
                continue
            case .accessGroup:
                let group = String(decoding: bytes, as: UTF8.self)
                guard caller.holds(group) else { throw .missingEntitlement(group: group) }
                groups = [group]
            case .accessibility:
                conditions.append("protection = ?")
                arguments.append(String(decoding: bytes, as: UTF8.self))
            default:
                if StoredColumns.indexedCodes.contains(code) {
                    // `IS NOT NULL` lets SQLite use the partial index on the column.
                    conditions.append("\(code) = ? AND \(code) IS NOT NULL")
                    arguments.append(hasher.hash(code, bytes))
                } else {
                    residual.append((attribute, bytes))
                }
            }
        }
        // The class as a literal: SQLite uses a partial index (each class's key index) only
        // for a query whose terms repeat its WHERE clause. Group terms stay off the indexes:
        // every item of the caller matches them.
        conditions.append("class = \(query.itemClass.storageCode)")
        if let groups {
            conditions.append("+agrp IN (\(groups.map { _ in "?" }.joined(separator: ", ")))")
            arguments += groups.map { hasher.accessGroupHash($0) }
        }
        let location = query.persistentReference.flatMap(RowReference.location)
        if let location {
            conditions.append("id = ? AND nonce = ?")
            arguments += [location.rowID, location.nonce]
        } else if query.persistentReference == nil {
            switch query.synchronizable {
            case .notSynchronizable: conditions.append("sync = 0")
            case .synchronizable: conditions.append("sync = 1")
            case .any: break
            }
        }
        self.whereClause = conditions.joined(separator: " AND ")
        self.arguments = arguments
        self.residual = residual
        self.matchesNothing = query.itemClass == .identity || groups?.isEmpty == true
            || (query.persistentReference.map { $0.itemClass != query.itemClass || location == nil } ?? false)
    }

    /// Every row of the keychain, of all classes and access groups: for an export, which is
    /// an operation of the keychain's owner rather than of one app.
    static var everyRow: MatchPlan {
        MatchPlan(whereClause: "1", arguments: [], residual: [], matchesNothing: false)
    }

    private init(whereClause: String, arguments: [DatabaseValueConvertible?],
                 residual: [(attribute: Attribute, bytes: Data)], matchesNothing: Bool) {
        self.whereClause = whereClause
        self.arguments = arguments
        self.residual = residual
        self.matchesNothing = matchesNothing
    }

    /// The query that reads the candidate rows, with ``arguments``.
    func sql(withSecret: Bool) -> String {
        """
        SELECT id, nonce, class, sync, protection, identity, agrp, acct, svce, srvr, attributes, \
        \(withSecret ? "secret" : "NULL") FROM item WHERE \(whereClause) ORDER BY id
        """
    }

    /// Deletes every candidate row, for a plan without residual attributes; how many.
    func deleteMatches(in db: Database) throws -> Int {
        if matchesNothing { return 0 }
        try db.cachedStatement(sql: "DELETE FROM item WHERE \(whereClause)")
            .execute(arguments: StatementArguments(arguments))
        return db.changesCount
    }

    /// Calls `body` for each candidate row in insertion order until it returns false.
    ///
    /// Steps GRDB's cached statement through SQLite's own API: a find reads one row, and
    /// GRDB's cursor, row and argument objects cost more than the lookup itself (measured).
    func forEachRow(in db: Database, withSecret: Bool, _ body: (StoredRow) throws -> Bool) throws {
        if matchesNothing { return }
        let statement = try db.cachedStatement(sql: sql(withSecret: withSecret)).sqliteStatement
        // Leaves the statement as GRDB expects to find it, and ends the read.
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, argument) in arguments.enumerated() {
            let code = (argument?.databaseValue ?? .null).bind(to: statement, at: CInt(index + 1))
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        func blob(_ column: CInt) -> Data? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : Data(sqliteStatement: statement, index: column)
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage)
            }
            guard let nonce = blob(1), nonce.count == 8, let protection = sqlite3_column_text(statement, 4),
                  let identity = blob(5), let accessGroup = blob(6), let sealedAttributes = blob(10)
            else { throw KeychainError.decode }
            let stored = StoredRow(
                id: sqlite3_column_int64(statement, 0),
                nonce: nonce,
                columns: StoredColumns(
                    classCode: Int(sqlite3_column_int64(statement, 2)),
                    sync: Int(sqlite3_column_int64(statement, 3)),
                    protection: String(cString: protection),
                    identity: identity, accessGroup: accessGroup,
                    account: blob(7), service: blob(8), server: blob(9)),
                sealedAttributes: sealedAttributes,
                sealedSecret: blob(11))
            guard try body(stored) else { return }
        }
    }

    /// Whether an opened record equals the query on the attributes that have no column.
    func residualMatches(_ record: ItemRecord) throws(KeychainError) -> Bool {
        for (attribute, bytes) in residual {
            guard try record.canonicalBytes(of: attribute) == bytes else { return false }
        }
        return true
    }
}
