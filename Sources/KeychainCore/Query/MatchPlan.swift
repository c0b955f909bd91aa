import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// A row of the `item` table as read, before anything is opened.
struct StoredRow {
    let id: Int64
    /// The random half of the item's persistent reference (see ``RowReference``).
    let nonce: Data
    let columns: StoredColumns
    let sealedAttributes: Data
    let sealedSecret: Data?

    /// The columns that ``PlanStatements`` select, in their order.
    static let selectedColumns = "id, nonce, class, sync, protection, identity, agrp, acct, svce, srvr, attributes"

    /// Reads the current row of a statement that selects ``selectedColumns`` and then the
    /// secret (or NULL). errSecDecode for a row whose clear columns are damaged.
    init(statement: SQLiteStatement) throws(KeychainError) {
        func blob(_ column: CInt) -> Data? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : Data(sqliteStatement: statement, index: column)
        }
        guard let nonce = blob(1), nonce.count == 8, let protection = sqlite3_column_text(statement, 4),
              let identity = blob(5), let accessGroup = blob(6), let sealedAttributes = blob(10)
        else { throw .decode }
        id = sqlite3_column_int64(statement, 0)
        self.nonce = nonce
        columns = StoredColumns(
            classCode: Int(sqlite3_column_int64(statement, 2)),
            sync: Int(sqlite3_column_int64(statement, 3)),
            protection: String(cString: protection),
            identity: identity, accessGroup: accessGroup,
            account: blob(7), service: blob(8), server: blob(9))
        self.sealedAttributes = sealedAttributes
        sealedSecret = blob(11)
    }
}

/// How a query is answered: SQL equality on the hashed and clear columns (an index lookup),
/// then, for the attributes that have no column, a comparison after opening the record.
struct MatchPlan {
    /// The statements of the plan's shape; ``arguments`` fill their parameters.
    let statements: PlanStatements
    let arguments: [SQLValue]
    /// Attributes compared after opening the record, with the canonical bytes to equal.
    let residual: [(attribute: Attribute, bytes: Data)]
    /// A query that can match nothing (a persistent reference of another class, or an
    /// identity, which has no stored form).
    let matchesNothing: Bool

    init(query: ItemQuery, caller: CallerIdentity, hasher: IndexHasher) throws(KeychainError) {
        let schema = query.itemClass.schema
        var protection: String?
        // The hashed columns, in the order of ``StoredColumns/hashedAttributeCodes``.
        var hashed: [Data?] = [nil, nil, nil]
        var residual: [(Attribute, Data)] = []
        // nil: every group, for a caller that holds `*`.
        var groups: [String]? = caller.holdsEveryGroup ? nil : caller.accessGroups
        // In code order, so that of several wrong attributes the same one is reported.
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
                protection = String(decoding: bytes, as: UTF8.self)
            default:
                if let column = StoredColumns.hashedAttributeCodes.firstIndex(of: code) {
                    hashed[column] = hasher.hash(code, bytes)
                } else {
                    residual.append((attribute, bytes))
                }
            }
        }
        let location = query.persistentReference.flatMap(RowReference.location)
        let shape = PlanShape(
            classCode: query.itemClass.storageCode,
            protection: protection != nil,
            columns: hashed.enumerated().reduce(0) { mask, column in column.element == nil ? mask : mask | 1 << column.offset },
            groupCount: groups?.count,
            reference: location != nil,
            synchronizable: query.persistentReference == nil ? query.synchronizable : nil)
        var arguments: [SQLValue] = []
        arguments.reserveCapacity(6 + (groups?.count ?? 0))
        if let protection { arguments.append(.text(protection)) }
        for case let hash? in hashed { arguments.append(.blob(hash)) }
        for group in groups ?? [] { arguments.append(.blob(hasher.accessGroupHash(group))) }
        if let location { arguments += [.integer(location.rowID), .blob(location.nonce)] }
        self.statements = PlanStatements.of(shape)
        self.arguments = arguments
        self.residual = residual
        self.matchesNothing = query.itemClass == .identity || groups?.isEmpty == true
            || (query.persistentReference.map { $0.itemClass != query.itemClass || location == nil } ?? false)
    }

    /// Every row of the keychain, of all classes and access groups: for an export, which is
    /// an operation of the keychain's owner rather than of one app.
    static var everyRow: MatchPlan {
        MatchPlan(statements: PlanStatements(whereClause: "1"), arguments: [], residual: [], matchesNothing: false)
    }

    private init(statements: PlanStatements, arguments: [SQLValue],
                 residual: [(attribute: Attribute, bytes: Data)], matchesNothing: Bool) {
        self.statements = statements
        self.arguments = arguments
        self.residual = residual
        self.matchesNothing = matchesNothing
    }

    /// The query that reads the candidate rows, with ``arguments``.
    func sql(withSecret: Bool) -> String {
        withSecret ? statements.selectWithSecret : statements.select
    }

    /// Deletes every candidate row, for a plan without residual attributes; how many.
    func deleteMatches(in db: Database) throws -> Int {
        if matchesNothing { return 0 }
        return try DirectStatement(db, sql: statements.delete, values: arguments).execute()
    }

    /// Calls `body` for each candidate row in insertion order until it returns false.
    ///
    /// Reads the columns through SQLite's own API: a find reads one row, and GRDB's cursor
    /// and row objects cost more than the lookup itself (measured).
    func forEachRow(in db: Database, withSecret: Bool, _ body: (StoredRow) throws -> Bool) throws {
        if matchesNothing { return }
        try DirectStatement(db, sql: sql(withSecret: withSecret), values: arguments).forEachRow { statement in
            try body(StoredRow(statement: statement))
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

/// What the SQL of a plan depends on, apart from the values it binds.
struct PlanShape: Hashable {
    let classCode: Int
    let protection: Bool
    /// Which of ``StoredColumns/hashedAttributeCodes`` the query names: bit n for the n-th.
    let columns: UInt8
    /// How many access groups the query covers; nil for all of them.
    let groupCount: Int?
    let reference: Bool
    /// The synchronizable filter; nil for a lookup by persistent reference, which ignores it.
    let synchronizable: SynchronizableFilter?

    /// The terms of the WHERE clause, in the order of the arguments.
    var whereClause: String {
        var conditions: [String] = []
        if protection { conditions.append("protection = ?") }
        for (index, code) in StoredColumns.hashedAttributeCodes.enumerated() where columns & 1 << index != 0 {
            // `IS NOT NULL` lets SQLite use the partial index on the column.
            conditions.append("\(code) = ? AND \(code) IS NOT NULL")
        }
        // The class as a literal: SQLite uses a partial index (each class's key index) only
        // for a query whose terms repeat its WHERE clause. Group terms stay off the indexes:
        // every item of the caller matches them.
        conditions.append("class = \(classCode)")
        if let groupCount {
            conditions.append("+agrp IN (\(Array(repeating: "?", count: groupCount).joined(separator: ", ")))")
        }
        if reference { conditions.append("id = ? AND nonce = ?") }
        switch synchronizable {
        case .notSynchronizable: conditions.append("sync = 0")
        case .synchronizable: conditions.append("sync = 1")
        case .any, nil: break
        }
        return conditions.joined(separator: " AND ")
    }
}

/// The statements of one shape of plan, built once per shape: a call then pays a lookup
/// rather than building and hashing its SQL (measured: a fifth of a find).
struct PlanStatements: Sendable {
    let select: String
    let selectWithSecret: String
    let delete: String

    init(whereClause: String) {
        let columns = StoredRow.selectedColumns
        select = "SELECT \(columns), NULL FROM item WHERE \(whereClause) ORDER BY id"
        selectWithSecret = "SELECT \(columns), secret FROM item WHERE \(whereClause) ORDER BY id"
        delete = "DELETE FROM item WHERE \(whereClause)"
    }

    private static let built = Mutex<[PlanShape: PlanStatements]>([:])
    /// Shapes differ by the attributes named and the number of groups: a handful per app.
    /// Beyond the bound, a shape's statements are built each time.
    private static let builtLimit = 512

    static func of(_ shape: PlanShape) -> PlanStatements {
        if let statements = built.withLock({ $0[shape] }) { return statements }
        let statements = PlanStatements(whereClause: shape.whereClause)
        built.withLock { built in
            if built.count < builtLimit { built[shape] = statements }
        }
        return statements
    }
}
