import Foundation
import GRDB

/// How a query is answered: SQL equality on the hashed and clear columns (an index lookup),
/// then, for the attributes that have no column, a comparison after opening the record.
/// A query that names no hashed column, no whole primary key and no persistent reference,
/// but an attribute of ``AttributeIndexTable``, reads its candidates through that table
/// (and the rows not indexed yet), which it still opens and compares in full.
struct MatchPlan {
    /// The statements of the plan's shape; ``arguments`` fill their parameters.
    let statements: PlanStatements
    let arguments: [SQLValue]
    /// Attributes compared after opening the record, with the canonical bytes to equal.
    let residual: [(attribute: Attribute, bytes: Data)]
    /// Attributes with a lookup column (``KeyLookupColumns``), compared after opening only
    /// the rows not indexed yet, which the columns cannot decide.
    let residualIfNotIndexed: [(attribute: Attribute, bytes: Data)]
    /// A query that can match nothing (a persistent reference of another class, or an
    /// identity, which has no stored form).
    let matchesNothing: Bool

    /// A query's attributes sorted into the plan's parts (``init(query:caller:hasher:)``).
    private struct Terms {
        var protection: String?
        /// The hashed columns, in the order of ``StoredColumns/hashedAttributeCodes`` (six):
        /// inline, as an array of them cost every find an allocation.
        var hashed = InlineArray<6, Data?>(repeating: nil)
        /// Which of ``hashed`` are set: bit n for the n-th.
        var hashedMask: UInt8 = 0
        var residual: [(attribute: Attribute, bytes: Data)] = []
        var residualIfNotIndexed: [(attribute: Attribute, bytes: Data)] = []
        /// nil: every group, for a caller that holds `*`.
        var groups: [String]?

        /// Reads `attributes` in the order given; the first wrong one throws.
        init(_ attributes: some Sequence<(key: String, value: AttributeValue)>, schema: ItemSchema,
             caller: CallerIdentity, hasher: IndexHasher) throws(KeychainError) {
            groups = caller.holdsEveryGroup ? nil : caller.accessGroups
            for (code, value) in attributes {
                let attribute = try schema.attribute(code)
                // An account, service or server given as text: its canonical bytes are its
                // UTF-8, hashed in place rather than copied into a `Data` first.
                if case .string(let string) = value, attribute.kind == .text || attribute.kind == .data,
                   let column = StoredColumns.hashedAttributeCodes.firstIndex(of: code),
                   !KeyLookupColumns.attributeCodes.contains(code) {
                    hashed[column] = hasher.hash(code, utf8Of: string)
                    hashedMask |= 1 << column
                    continue
                }
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
                        hashedMask |= 1 << column
                        if KeyLookupColumns.attributeCodes.contains(code) { residualIfNotIndexed.append((attribute, bytes)) }
                    } else {
                        residual.append((attribute, bytes))
                    }
                }
            }
            // In code order, as the attributes are compared in this order after opening.
            if residual.count > 1 { residual.sort { $0.attribute.code < $1.attribute.code } }
            if residualIfNotIndexed.count > 1 { residualIfNotIndexed.sort { $0.attribute.code < $1.attribute.code } }
        }
    }

    init(query: ItemQuery, caller: CallerIdentity, hasher: IndexHasher) throws(KeychainError) {
        let schema = query.itemClass.schema
        // In the dictionary's order, and when that fails, again in code order, so that of
        // several wrong attributes the same one is reported: what is read does not depend
        // on the order, and sorting every query first cost a find about 600 instructions.
        let terms: Terms
        do {
            terms = try Terms(query.attributes, schema: schema, caller: caller, hasher: hasher)
        } catch {
            terms = try Terms(query.attributes.sorted { $0.key < $1.key }, schema: schema, caller: caller, hasher: hasher)
        }
        let protection = terms.protection, groups = terms.groups
        var residual = terms.residual, residualIfNotIndexed = terms.residualIfNotIndexed
        let identities = Self.identities(of: query, groups: groups, hasher: hasher)
        if identities != nil {
            // The identity hash holds the primary key's fields: nothing left to compare them on.
            residual.removeAll { schema.primaryKey.contains($0.0) }
            residualIfNotIndexed.removeAll { schema.primaryKey.contains($0.0) }
        }
        let location = query.persistentReference.flatMap(RowReference.location)
        // The other lookups already narrow to a few rows; this one serves queries that would
        // otherwise read every row of the class. Its attribute stays in the residual.
        var indexed: Data?
        if terms.hashedMask == 0 && identities == nil && location == nil,
           let code = AttributeIndexTable.lookupCode(among: residual.map { $0.0.code }),
           let bytes = residual.first(where: { $0.0.code == code })?.1 {
            indexed = hasher.hash(code, bytes)
        }
        let shape = PlanShape(
            classCode: query.itemClass.storageCode,
            protection: protection != nil,
            columns: terms.hashedMask,
            identityCount: identities?.count,
            attributeIndex: indexed != nil,
            groupCount: groups?.count,
            reference: location != nil,
            synchronizable: query.persistentReference == nil ? query.synchronizable : nil)
        var arguments: [SQLValue] = []
        arguments.reserveCapacity(6 + (groups?.count ?? 0))
        if let protection { arguments.append(.text(protection)) }
        for column in terms.hashed.indices { if let hash = terms.hashed[column] { arguments.append(.blob(hash)) } }
        for identity in identities ?? [] { arguments.append(.blob(identity)) }
        if let indexed { arguments.append(.blob(indexed)) }
        for group in groups ?? [] { arguments.append(.blob(hasher.accessGroupHash(group))) }
        if let location { arguments += [.integer(location.rowID), .blob(location.nonce)] }
        self.statements = PlanStatements.of(shape)
        self.arguments = arguments
        self.residual = residual
        self.residualIfNotIndexed = residualIfNotIndexed
        self.matchesNothing = query.itemClass == .identity || groups?.isEmpty == true
            || (query.persistentReference.map { $0.itemClass != query.itemClass || location == nil } ?? false)
    }

    /// The identity hashes a query that names its class's whole primary key can match: one
    /// per access group and synchronizable value it covers, found through the class's
    /// UNIQUE index (design: lookups never decrypt the table). nil where that does not
    /// apply: a primary-key field missing, no field that lacks a column of its own (the
    /// columns already find the item), a caller of every group, or too many groups.
    private static func identities(of query: ItemQuery, groups: [String]?, hasher: IndexHasher) -> [Data]? {
        let schema = query.itemClass.schema
        guard !schema.primaryKey.isEmpty, let groups, !groups.isEmpty, groups.count <= maximumIdentityGroups,
              schema.primaryKey.contains(where: { !StoredColumns.hashedAttributeCodes.contains($0.code) })
        else { return nil }
        var keyBytes: [String: Data] = [:]
        for attribute in schema.primaryKey {
            guard let value = query.attributes[attribute.code],
                  let bytes = try? attribute.canonicalBytes(of: value) else { return nil }
            keyBytes[attribute.code] = bytes
        }
        let syncValues: [Int64] = switch query.synchronizable {
        case .notSynchronizable: [0]
        case .synchronizable: [1]
        case .any: [0, 1]
        }
        var identities: [Data] = []
        for group in groups {
            for sync in syncValues {
                // In the order of the identity's fields, as StoredColumns hashes a record's.
                let fields = schema.identityFields.map { attribute -> (attribute: Attribute, bytes: Data) in
                    switch attribute {
                    case ItemSchema.accessGroup: (attribute, Data(utf8Of: group))
                    case ItemSchema.synchronizable: (attribute, Attribute.bytes(of: sync))
                    default: (attribute, keyBytes[attribute.code] ?? attribute.defaultCanonicalBytes)
                    }
                }
                identities.append(hasher.identity(of: query.itemClass, fields: fields))
            }
        }
        return identities
    }

    /// Beyond this many access groups a search compares the key fields after opening rows.
    private static let maximumIdentityGroups = 32

    /// Every row of the keychain, of all classes and access groups: for an export, which is
    /// an operation of the keychain's owner rather than of one app.
    static var everyRow: MatchPlan {
        MatchPlan(statements: PlanStatements(whereClause: "1"), arguments: [], residual: [], residualIfNotIndexed: [],
                  matchesNothing: false)
    }

    private init(statements: PlanStatements, arguments: [SQLValue], residual: [(attribute: Attribute, bytes: Data)],
                 residualIfNotIndexed: [(attribute: Attribute, bytes: Data)], matchesNothing: Bool) {
        self.statements = statements
        self.arguments = arguments
        self.residual = residual
        self.residualIfNotIndexed = residualIfNotIndexed
        self.matchesNothing = matchesNothing
    }

    /// Whether the columns alone decide every candidate row, so that matches can be
    /// deleted by one statement (``deleteMatches(in:)``) without opening them.
    var columnsDecide: Bool {
        residual.isEmpty && residualIfNotIndexed.isEmpty
    }

    /// Whether a candidate row must be opened to tell whether it matches.
    func mustOpen(_ row: StoredRow) -> Bool {
        !residual.isEmpty || (!residualIfNotIndexed.isEmpty && !row.columns.isIndexed)
    }

    /// The query that reads the candidate rows, with ``arguments``.
    func sql(withSecret: Bool) -> String {
        withSecret ? statements.selectWithSecret : statements.select
    }

    /// Deletes every candidate row, for a plan whose ``columnsDecide``; how many.
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

    /// Whether the opened record of a candidate row equals the query on the attributes its
    /// columns do not decide.
    func residualMatches(_ record: ItemRecord, of row: StoredRow) throws(KeychainError) -> Bool {
        for (attribute, bytes) in residual {
            guard try record.canonicalBytes(of: attribute) == bytes else { return false }
        }
        if !row.columns.isIndexed {
            for (attribute, bytes) in residualIfNotIndexed {
                guard try record.canonicalBytes(of: attribute) == bytes else { return false }
            }
        }
        return true
    }
}
