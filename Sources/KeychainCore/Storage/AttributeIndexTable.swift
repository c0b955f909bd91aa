import Foundation
import GRDB

/// The `item_attribute` table: for each item, the keyed hash of each of its searched
/// attributes that has no column of its own (``attributeCodes``: the label, description and
/// comment, creator and type codes, a key's type and sizes, a certificate's subject, issuer
/// and serial number), so that a find by one of them reads the items that have its value
/// rather than opening every item of the class.
///
/// Each entry is ``IndexHasher/hash(_:_:)`` of the attribute's code and the canonical bytes
/// a search compares (the value's exact bytes: searches are case-sensitive, and
/// `kSecMatchCaseInsensitive` has no effect, so an exact hash answers them). The code
/// separates attributes, so equal text in a label and a comment hashes apart.
///
/// What the files show: which items share a value of one of these attributes (two keys of
/// one name, the certificates of one issuer, the passwords of one creator code), never the
/// value. The table is an index only: it is not part of any item's associated data, so
/// whoever changes the file can hide an item from such a find or add candidates to it (as
/// deleting or copying rows could); a find opens its candidates and compares their sealed
/// attributes, so it never returns an item that does not match.
///
/// Rows written before the table existed (format 6 and older), or by an older library that
/// still held the database open, have `indexed` 0 (the column's default): their entries are
/// unknown until their class key opens them (``KeychainStore/indexRowsOfOlderFormats()``),
/// and until then every find by one of these attributes reads them as candidates too.
enum AttributeIndexTable {
    /// The attributes indexed here, most selective first: a find that names several uses
    /// the first (``MatchPlan``) and compares the others after opening its candidates, so
    /// that a few values shared by half the keys (a key type) never drive it.
    static let attributeCodes = ["labl", "subj", "slnr", "issr", "desc", "icmt", "crtr", "type", "bsiz", "esiz"]

    /// The table, the index that finds an item's entries, the trigger that deletes them with
    /// the item, the mark of the rows indexed, and the partial index of the rows not indexed
    /// yet, which holds nothing once every row is.
    static let creationSQL = """
        ALTER TABLE item ADD COLUMN indexed INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE item_attribute (
            value BLOB NOT NULL,
            item INTEGER NOT NULL,
            PRIMARY KEY (value, item)
        ) WITHOUT ROWID;
        CREATE INDEX item_attribute_by_item ON item_attribute (item);
        CREATE TRIGGER item_attribute_deleted AFTER DELETE ON item
        BEGIN DELETE FROM item_attribute WHERE item = old.id; END;
        CREATE INDEX item_not_indexed ON item (id) WHERE indexed = 0;
        """

    /// The hashes of a record's indexed attributes: those its class has and that it holds
    /// (or, for a primary-key field, its default), as a search compares them. Sorted, so
    /// equal records give equal lists.
    static func hashes(of record: ItemRecord, hasher: IndexHasher) -> [Data] {
        var hashes: [Data] = []
        for (attribute, isPrimaryKey) in indexedAttributes[record.itemClass] ?? [] {
            // As ``ItemRecord/canonicalBytes(of:)``, with the schema's part looked up once
            // per class rather than per attribute on every write.
            let bytes: Data? = if let value = record.attributes[attribute.code] {
                try? attribute.canonicalBytes(of: value)
            } else {
                isPrimaryKey ? attribute.defaultCanonicalBytes : nil
            }
            guard let bytes else { continue }
            hashes.append(hasher.hash(attribute.code, bytes))
        }
        return hashes.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Per class, the ``attributeCodes`` its schema has, in that order, and whether each is
    /// a primary-key field (which a record without it holds at its default).
    private static let indexedAttributes: [ItemClass: [(attribute: Attribute, isPrimaryKey: Bool)]] =
        Dictionary(uniqueKeysWithValues: ItemClass.allCases.map { itemClass in
            let schema = itemClass.schema
            return (itemClass, attributeCodes.compactMap { code in
                schema.attributes[code].map { ($0, schema.primaryKey.contains($0)) }
            })
        })

    /// The code of the attribute a query's index lookup uses: the first of
    /// ``attributeCodes`` it names; nil when it names none.
    static func lookupCode(among codes: some Sequence<String>) -> String? {
        let named = Set(codes)
        return attributeCodes.first { named.contains($0) }
    }

    /// The condition on `item` that reads, through the table, the rows with the bound hash,
    /// and the rows not indexed yet, which may match too.
    static let candidateCondition =
        "id IN (SELECT item FROM item_attribute WHERE value = ? UNION ALL SELECT id FROM item WHERE indexed = 0)"

    /// Where a row's entries are written, and its mark that they are.
    static let entries = HashIndexEntries(table: "item_attribute", hashColumn: "value", markColumn: "indexed")
}
