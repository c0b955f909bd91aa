import GRDB

/// The tables of a keychain database, created by GRDB's migrator.
///
/// `item` holds one row per item. Only what selects a key or a row is in the clear: the
/// class, the synchronizable flag and the protection class. The identity tuple and the
/// searched attributes are keyed hashes; every attribute and the secret are sealed.
///
/// Every index costs a page write per commit, so each one serves as much as it can. One
/// UNIQUE index per class holds the identity, so that the database itself rejects a second
/// item with the same key; for passwords it leads with the service or server and the
/// account, which the identity determines, so the same index write also serves equality
/// search on them. An account index serves searches by account alone. A persistent
/// reference holds the row id, so it needs no index of its own, and the row id is a plain
/// `INTEGER PRIMARY KEY`, which spares the `sqlite_sequence` write of AUTOINCREMENT: a
/// reused id cannot resolve an old reference, whose nonce differs. The CHECKs keep ids
/// within the 60 bits a reference holds and every row under one of the UNIQUE indexes.
/// A query naming none of the hashed attributes reads the clear columns of the table in
/// insertion order, which opens nothing that does not match. Keys by tag or label and
/// certificates by public-key hash have an index each (``KeyLookupColumns``). A query that
/// names neither but a searched attribute without a column (a label, ...) reads only the
/// rows that `item_attribute` lists for its value, and the rows not indexed yet.
/// `item_pair` holds the keyed hashes of the lookup attributes that generic passwords keep in
/// their generic data, one row per pair (``LookupPairTable``).
/// `item_attribute` holds the keyed hashes of the other searched attributes (the label, a
/// certificate's subject, ...), one row per attribute of an item (``AttributeIndexTable``).
/// `sync_log` lists the changes to synchronizable items while sync is on (``SyncLogTable``).
enum KeychainSchema {
    /// The storage format this library writes. Every migration that changes the schema raises
    /// it: a database that records it has nothing to migrate, and opening it skips the
    /// migrator (see ``KeychainStore/open(_:creating:mustExist:)``). A database with another number was written
    /// by another version of the library and is refused (errSecWrongSecVersion) rather than
    /// misread. Format 1 was written only by development builds before the first release.
    /// Format 3 pads what it seals to size classes (``SizeClassPadding``); it still reads the
    /// unpadded rows of format 2, which it takes over at open (``readableFormats``), and
    /// marks the database 3 so that a library that reads format 2 only refuses it.
    /// Format 4 adds the hashed columns that find keys by tag or label and certificates by
    /// public-key hash (``KeyLookupColumns``), with their indexes; the keys and certificates
    /// of an older database are marked not indexed, and found all the same, until a search
    /// indexes them. A library that reads format 3 would write keys without those columns,
    /// which searches would then miss: it refuses format 4.
    /// Format 5 adds the sync change log (``SyncLogTable``): its table, and the meta key that
    /// says whether it is on. While it is on, triggers log every change to a synchronizable
    /// item; a library that reads format 4 knows nothing of them and would also log the rows
    /// it reseals, and remove nothing when it turns sync off: it refuses format 5.
    /// Format 6 adds the index of lookup attribute pairs (``LookupPairTable``): its table,
    /// and the `paired` mark of the rows indexed. A library that reads format 5 would write
    /// generic passwords without their pairs, which searches by attributes would then miss:
    /// it refuses format 6.
    /// Format 7 adds the index of the searched attributes without a column of their own
    /// (``AttributeIndexTable``): its table, and the `indexed` mark of the rows indexed. A
    /// library that reads format 6 would write items without their entries, which finds by
    /// those attributes would then miss: it refuses format 7.
    static let formatVersion = 7

    /// The formats this library opens.
    static let readableFormats = 2...formatVersion

    /// Each migration records the format its own schema is, never ``formatVersion``: GRDB
    /// commits migrations one at a time, so a crash or power cut between two of them must
    /// leave a database whose recorded format matches its tables, which the next open then
    /// migrates on.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value ANY NOT NULL
                );
                INSERT INTO meta (key, value) VALUES ('format', 2);
                CREATE TABLE keybag (
                    name TEXT PRIMARY KEY NOT NULL,
                    wrapping TEXT NOT NULL,
                    wrapped BLOB NOT NULL
                );
                CREATE TABLE item (
                    id INTEGER PRIMARY KEY CHECK (id > 0 AND id < \(RowReference.idLimit)),
                    nonce BLOB NOT NULL,
                    class INTEGER NOT NULL CHECK (class BETWEEN 1 AND 4),
                    sync INTEGER NOT NULL,
                    protection TEXT NOT NULL,
                    identity BLOB NOT NULL,
                    agrp BLOB NOT NULL,
                    acct BLOB,
                    svce BLOB,
                    srvr BLOB,
                    attributes BLOB NOT NULL,
                    secret BLOB
                );
                CREATE UNIQUE INDEX generic_password_key ON item (svce, acct, identity) WHERE class = 1;
                CREATE UNIQUE INDEX internet_password_key ON item (srvr, acct, identity) WHERE class = 2;
                CREATE UNIQUE INDEX certificate_key ON item (identity) WHERE class = 3;
                CREATE UNIQUE INDEX key_key ON item (identity) WHERE class = 4;
                CREATE INDEX item_by_account ON item (acct) WHERE acct IS NOT NULL;
                """)
        }
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "UPDATE meta SET value = 3 WHERE key = 'format'")
        }
        migrator.registerMigration("v4") { db in
            // The default marks every row of before, and any row a format 3 library still
            // holding the database open adds after, as not indexed: found all the same, and
            // indexed later (``KeyLookupColumns``). Columns added with a default cost no
            // rewrite of the existing rows. The indexes are partial, one class each, like
            // the key indexes: a search names its class as a literal, and passwords pay no
            // index write for them. They hold the rows not indexed too, which a search reads
            // with its value through the same index.
            try db.execute(sql: """
                ALTER TABLE item ADD COLUMN atag BLOB DEFAULT X'';
                ALTER TABLE item ADD COLUMN klbl BLOB DEFAULT X'';
                ALTER TABLE item ADD COLUMN pkhh BLOB DEFAULT X'';
                CREATE INDEX key_by_tag ON item (atag) WHERE class = \(ItemClass.key.storageCode);
                CREATE INDEX key_by_label ON item (klbl) WHERE class = \(ItemClass.key.storageCode);
                CREATE INDEX certificate_by_public_key_hash ON item (pkhh)
                    WHERE class = \(ItemClass.certificate.storageCode);
                UPDATE meta SET value = 4 WHERE key = 'format';
                """)
        }
        migrator.registerMigration("v5") { db in
            try db.execute(sql: SyncLogTable.creationSQL + "UPDATE meta SET value = 5 WHERE key = 'format';")
        }
        migrator.registerMigration("v6") { db in
            try db.execute(sql: LookupPairTable.creationSQL + "UPDATE meta SET value = 6 WHERE key = 'format';")
        }
        migrator.registerMigration("v7") { db in
            try db.execute(sql: AttributeIndexTable.creationSQL + "UPDATE meta SET value = 7 WHERE key = 'format';")
        }
        return migrator
    }

    /// The format recorded in an existing database, or nil for a new one.
    ///
    /// Asks sqlite_master directly: GRDB's `tableExists` also loads its schema cache, a fifth
    /// of the CPU time that opening a keychain costs a fresh process.
    static func recordedFormat(_ db: Database) throws -> Int? {
        let hasMeta = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta')") ?? false
        guard hasMeta else { return nil }
        return try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'format'")
    }
}
