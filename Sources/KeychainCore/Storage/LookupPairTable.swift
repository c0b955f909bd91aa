import Foundation
import GRDB
import GRDBSQLite

/// One attribute of a lookup attribute set (``LookupAttributeSet``): what a search by
/// attributes names.
package struct LookupPair: Hashable, Sendable {
    package let name: String
    package let value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The `item_pair` table: for each generic password whose generic data begins with a lookup
/// attribute set, the keyed hash of each of its pairs (``IndexHasher/lookupPairHash(_:)``),
/// so that a search by any attributes (the Secret Service's SearchItems) is an index lookup
/// that opens only the items it finds, and can name them while their class is locked.
///
/// What the files show: which items share a pair (as the service and account columns show
/// which share a service or account), never a name or a value. The table is an index only:
/// it is not part of any item's associated data, so whoever changes the file can hide an
/// item from such a search or add a row to its candidates (as deleting or copying rows
/// could), and a search that opens its candidates compares their sealed attributes.
///
/// Rows written before the table existed (format 5), or by a format 5 library that still
/// held the database open, have `paired` 0 (the column's default): their pairs are unknown
/// until their class key opens them (``KeychainStore/indexRowsOfOlderFormats()``), and a
/// search returns them apart (``LookupPairMatches/notIndexed``).
enum LookupPairTable {
    /// The table, the index that deletes an item's pairs, the trigger that does so with the
    /// item, and the partial index of the generic passwords not indexed yet, which holds
    /// nothing once every row is.
    static let creationSQL = """
        ALTER TABLE item ADD COLUMN paired INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE item_pair (
            pair BLOB NOT NULL,
            item INTEGER NOT NULL,
            PRIMARY KEY (pair, item)
        ) WITHOUT ROWID;
        CREATE INDEX item_pair_by_item ON item_pair (item);
        CREATE TRIGGER item_pair_deleted AFTER DELETE ON item WHEN old.class = \(ItemClass.genericPassword.storageCode)
        BEGIN DELETE FROM item_pair WHERE item = old.id; END;
        CREATE INDEX generic_password_not_paired ON item (id)
            WHERE class = \(ItemClass.genericPassword.storageCode) AND paired = 0;
        """

    /// The hashes of a record's pairs: none for a record that is not a generic password or
    /// whose generic data does not begin with a set. Sorted, so equal sets give equal lists.
    static func hashes(of record: ItemRecord, hasher: IndexHasher) -> [Data] {
        guard let set = set(of: record) else { return [] }
        return set.values.map { hasher.lookupPairHash(LookupPair(name: $0.key, value: $0.value)) }.sorted {
            $0.lexicographicallyPrecedes($1)
        }
    }

    /// The set a record's generic data begins with; nil for a record that is not a generic
    /// password or has none.
    static func set(of record: ItemRecord) -> LookupAttributeSet? {
        guard record.itemClass == .genericPassword,
              let attribute = record.itemClass.schema.attributes["gena"],
              let bytes = try? record.canonicalBytes(of: attribute) else { return nil }
        return LookupAttributeSet(genericData: bytes)
    }

    /// Where a row's entries are written, and its mark that they are.
    static let entries = HashIndexEntries(table: "item_pair", hashColumn: "pair", markColumn: "paired")
}

/// What a search by lookup pairs found, without opening anything.
package struct LookupPairMatches: Sendable {
    /// The items whose pairs satisfy every condition.
    package let references: [PersistentReference]
    /// The generic passwords whose pairs are not indexed yet (written by an older format, in
    /// a class whose key this process does not hold): they may match, which only opening
    /// them tells.
    package let notIndexed: [PersistentReference]
}

extension KeychainStore {
    /// The generic passwords of the caller's access groups that have, for each condition,
    /// at least one of its pairs; found through their keyed hashes alone, so also while
    /// their class is locked. An empty list of conditions is every item with a set.
    ///
    /// Rows not indexed yet are first indexed where this process holds their class key;
    /// those left are returned apart.
    package func referencesByLookupPairs(_ conditions: [[LookupPair]],
                                         by caller: CallerIdentity) throws(KeychainError) -> LookupPairMatches {
        let groups: [Data]? = caller.holdsEveryGroup ? nil : caller.accessGroups.map(hasher.accessGroupHash)
        if groups?.isEmpty == true { return LookupPairMatches(references: [], notIndexed: []) }
        let groupCondition = groups.map { " AND agrp IN (\(Array(repeating: "?", count: $0.count).joined(separator: ", ")))" } ?? ""
        let groupValues = (groups ?? []).map { SQLValue.blob($0) }
        let notPaired = "SELECT id, nonce FROM item WHERE class = \(ItemClass.genericPassword.storageCode) AND paired = 0"
            + groupCondition + " ORDER BY id"
        let references = { (db: Database, sql: String, values: [SQLValue]) throws -> [PersistentReference] in
            var found: [PersistentReference] = []
            try DirectStatement(db, sql: sql, values: values).forEachRow { statement in
                found.append(RowReference.reference(itemClass: .genericPassword, rowID: sqlite3_column_int64(statement, 0),
                                                    nonce: Data(sqliteStatement: statement, index: 1)))
                return true
            }
            return found
        }
        // Cheap once every row is indexed: the partial index of those not indexed is empty.
        indexRowsOfOlderFormats()
        var values: [SQLValue] = []
        let subqueries = conditions.map { pairs -> String in
            values += pairs.map { .blob(hasher.lookupPairHash($0)) }
            return "SELECT item FROM item_pair WHERE pair IN (\(Array(repeating: "?", count: pairs.count).joined(separator: ", ")))"
        }
        let candidates = subqueries.isEmpty ? "SELECT item FROM item_pair" : subqueries.joined(separator: " INTERSECT ")
        let matching = "SELECT id, nonce FROM item WHERE id IN (\(candidates)) AND class = "
            + "\(ItemClass.genericPassword.storageCode)" + groupCondition + " ORDER BY id"
        return try Self.read(database, during: "search by attributes") { db in
            LookupPairMatches(references: try references(db, matching, values + groupValues),
                              notIndexed: try references(db, notPaired, groupValues))
        }
    }
}
