import Foundation
import GRDB
import GRDBSQLite

/// The sync change log: the `sync_log` table, the `sync-log` meta key that says whether it is
/// on, and the triggers that fill it, all read and written in the caller's transaction.
///
/// The log is written by SQLite triggers on the `item` table, so that every statement that
/// changes a synchronizable item (an add, an update, a delete by columns or after opening,
/// an archive import, and any path added later) logs it in its own transaction, and a change
/// that fails or rolls back logs nothing. The triggers exist only while the log is on: with
/// the log off, a write costs nothing more than before (no trigger to evaluate, no extra
/// statement), and the schema itself tells every process at once when it turns on, with no
/// cached flag to go stale.
///
/// What rewrites rows without changing their content (a password change resealing them, the
/// indexing of keys of an older format) and what applies a remote change (which must not be
/// sent back) runs ``quietly(_:_:)``: the flag is cleared for its statements and set again
/// in the same transaction, so no other connection ever sees it cleared.
///
/// The log holds row ids, times and the rows' identity hashes (keyed, as in the `item`
/// table), no content: the identity tells a remote change about an item that a local change
/// not read yet deleted or renamed, which no row shows any more
/// (``hasEntry(for:identity:after:in:)``). Its sequence is AUTOINCREMENT, so a sequence is
/// never reused, even after the log is emptied: a reader that remembers the last one it
/// handled never misses a later entry. There is no index on the row id or identity: that
/// search reads only the entries after a known sequence, a range of the primary key, and
/// every index would cost a page write per logged change.
enum SyncLogTable {
    /// The meta key of the on/off flag (1 or 0).
    static let flagKey = "sync-log"

    /// What migration v5 runs: the table, and the flag, off.
    static let creationSQL = """
        CREATE TABLE sync_log (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            row INTEGER NOT NULL,
            identity BLOB,
            time INTEGER NOT NULL
        );
        INSERT INTO meta (key, value) VALUES ('\(flagKey)', 0);
        """

    /// The protections whose items sync: every one that is not ThisDeviceOnly. A positive
    /// list, so that a protection this library does not know never syncs.
    private static let syncingProtections = Accessibility.allCases.filter { !$0.isThisDeviceOnly }
        .map { "'\($0.rawValue)'" }.joined(separator: ", ")

    /// Whether a row version (`NEW` or `OLD`) is one that syncs.
    private static func syncs(_ version: String) -> String {
        "(\(version).sync = 1 AND \(version).protection IN (\(syncingProtections)))"
    }

    /// Milliseconds since 1970, from SQLite's clock (the same for every row of one statement).
    private static let now = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
    private static let flagIsOn = "(SELECT value FROM meta WHERE key = '\(flagKey)') = 1"

    /// An update logs a row that syncs after it, and one that synced before it: a row that
    /// stops syncing (its flag cleared, or made ThisDeviceOnly) is a deletion for the others.
    private static let triggersSQL = """
        CREATE TRIGGER IF NOT EXISTS sync_log_insert AFTER INSERT ON item
        WHEN \(syncs("NEW")) AND \(flagIsOn)
        BEGIN INSERT INTO sync_log (row, identity, time) VALUES (NEW.id, NEW.identity, \(now)); END;
        CREATE TRIGGER IF NOT EXISTS sync_log_update AFTER UPDATE ON item
        WHEN (\(syncs("NEW")) OR \(syncs("OLD"))) AND \(flagIsOn)
        BEGIN
            INSERT INTO sync_log (row, identity, time) VALUES (NEW.id, NEW.identity, \(now));
            INSERT INTO sync_log (row, identity, time) SELECT OLD.id, OLD.identity, \(now)
                WHERE OLD.identity IS NOT NEW.identity AND \(syncs("OLD"));
        END;
        CREATE TRIGGER IF NOT EXISTS sync_log_delete AFTER DELETE ON item
        WHEN \(syncs("OLD")) AND \(flagIsOn)
        BEGIN INSERT INTO sync_log (row, identity, time) VALUES (OLD.id, OLD.identity, \(now)); END;
        """

    private static let dropTriggersSQL = """
        DROP TRIGGER IF EXISTS sync_log_insert;
        DROP TRIGGER IF EXISTS sync_log_update;
        DROP TRIGGER IF EXISTS sync_log_delete;
        """

    /// Whether the log is on.
    static func isOn(_ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = '\(flagKey)'") == 1
    }

    /// Turns the log on and logs every row that syncs, once; nothing when it is on already.
    static func start(_ db: Database) throws {
        guard try !isOn(db) else { return }
        try db.execute(sql: triggersSQL + """
            INSERT OR REPLACE INTO meta (key, value) VALUES ('\(flagKey)', 1);
            INSERT INTO sync_log (row, identity, time) SELECT id, identity, \(now) FROM item WHERE \(syncs("item")) ORDER BY id;
            """)
    }

    /// Turns the log off and empties it; the sequence goes on from where it was.
    static func stop(_ db: Database) throws {
        try db.execute(sql: dropTriggersSQL + """
            INSERT OR REPLACE INTO meta (key, value) VALUES ('\(flagKey)', 0);
            DELETE FROM sync_log;
            """)
    }

    /// How many entries come after `sequence`.
    static func count(after sequence: Int64, in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_log WHERE sequence > ?", arguments: [sequence]) ?? 0
    }

    /// The entries after `sequence`, oldest first, at most `limit`.
    static func entries(after sequence: Int64, limit: Int, in db: Database) throws -> [SyncLogEntry] {
        var entries: [SyncLogEntry] = []
        try DirectStatement(db, sql: "SELECT sequence, row, time, identity FROM sync_log WHERE sequence > ? ORDER BY sequence LIMIT ?",
                            values: [.integer(sequence), .integer(Int64(limit))]).forEachRow { statement in
            let time = sqlite3_column_int64(statement, 2)
            var identity: Data?
            if let bytes = sqlite3_column_blob(statement, 3) {
                identity = Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, 3)))
            }
            entries.append(SyncLogEntry(sequence: sqlite3_column_int64(statement, 0),
                                        rowID: sqlite3_column_int64(statement, 1),
                                        changedAt: UInt64(clamping: time), identity: identity))
            return true
        }
        return entries
    }

    /// The highest row id any entry names; nil when the log is empty. A row inserted quietly
    /// (a remote change applied) takes an id above it: given the id of a row whose deletion
    /// is not sent yet, it would make the agent read that row as the remote item and never
    /// send the deletion (see ``NewRow/insert(into:above:)``).
    static func highestRow(in db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT max(row) FROM sync_log")
    }

    /// Removes the entries up to `sequence`, included.
    static func remove(through sequence: Int64, in db: Database) throws {
        try DirectStatement(db, sql: "DELETE FROM sync_log WHERE sequence <= ?", values: [.integer(sequence)]).execute()
    }

    /// Whether the log holds an entry after `sequence` for the row `rowID` or for an item
    /// with `identity`: a local change the caller has not seen yet, also one that deleted
    /// the row or moved the item to another identity, which no row shows any more.
    static func hasEntry(for rowID: Int64?, identity: Data, after sequence: Int64, in db: Database) throws -> Bool {
        var found = false
        try DirectStatement(db, sql: "SELECT 1 FROM sync_log WHERE sequence > ? AND (row = ? OR identity = ?) LIMIT 1",
                            values: [.integer(sequence), rowID.map { .integer($0) } ?? .blob(nil), .blob(identity)])
            .forEachRow { _ in
                found = true
                return false
            }
        return found
    }

    /// Runs `body`, whose changes to items are not logged: the flag is cleared for it and set
    /// again after, in the caller's transaction. Two statements, whether the log is on or not:
    /// for the paths that rewrite many rows at once or apply a remote change, never for a
    /// plain write.
    @discardableResult
    static func quietly<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        let wasOn = try DirectStatement(db, sql: "UPDATE meta SET value = 0 WHERE key = '\(flagKey)' AND value = 1",
                                        values: []).execute() > 0
        let restore = { () throws in
            guard wasOn else { return }
            try DirectStatement(db, sql: "UPDATE meta SET value = 1 WHERE key = '\(flagKey)'", values: []).execute()
        }
        let result: T
        do {
            result = try body()
        } catch {
            // The caller's savepoint or transaction normally rolls the flag back with the
            // change; set again all the same for a caller that carries on after the error.
            try? restore()
            throw error
        }
        try restore()
        return result
    }
}
