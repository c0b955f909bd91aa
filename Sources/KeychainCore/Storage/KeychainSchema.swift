import GRDB

/// The tables of a keychain database, created by GRDB's migrator.
///
/// `item` holds one row per item. Only what selects a key or a row is in the clear: the
/// class, the synchronizable flag and the protection class. The identity tuple and the
/// searched attributes are keyed hashes; every attribute and the secret are sealed.
///
/// Every index costs a page write per commit, so there are only the ones equality search
/// needs: account, service and server (partial, so an item touches only its own class's).
/// A query naming none of them reads the clear columns of the table in insertion order,
/// which opens nothing that does not match.
enum KeychainSchema {
    /// The storage format this library writes. A database with a higher number was written
    /// by a newer library and is refused (errSecWrongSecVersion) rather than misread.
    static let formatVersion = 1

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value ANY NOT NULL
                );
                INSERT INTO meta (key, value) VALUES ('format', \(formatVersion));
                CREATE TABLE keybag (
                    name TEXT PRIMARY KEY NOT NULL,
                    wrapping TEXT NOT NULL,
                    wrapped BLOB NOT NULL
                );
                CREATE TABLE item (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    uuid BLOB NOT NULL UNIQUE,
                    class INTEGER NOT NULL,
                    sync INTEGER NOT NULL,
                    protection TEXT NOT NULL,
                    identity BLOB NOT NULL UNIQUE,
                    agrp BLOB NOT NULL,
                    acct BLOB,
                    svce BLOB,
                    srvr BLOB,
                    attributes BLOB NOT NULL,
                    secret BLOB
                );
                CREATE INDEX item_by_service ON item (svce, acct) WHERE svce IS NOT NULL;
                CREATE INDEX item_by_account ON item (acct) WHERE acct IS NOT NULL;
                CREATE INDEX item_by_server ON item (srvr, acct) WHERE srvr IS NOT NULL;
                """)
        }
        return migrator
    }

    /// The format recorded in an existing database, or nil for a new one.
    static func recordedFormat(_ db: Database) throws -> Int? {
        guard try db.tableExists("meta") else { return nil }
        return try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'format'")
    }
}
