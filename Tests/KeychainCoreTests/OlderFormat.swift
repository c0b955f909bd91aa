import GRDB
@testable import KeychainCore

/// Rewrites a keychain database as a library of an older storage format left it, to test
/// the migration from it: each later migration's tables, indexes, triggers and columns
/// dropped, the migration marked not applied, and the older format recorded.
enum OlderFormat {
    /// What undoes each migration, keyed by the format it brought.
    private static let undo: [Int: String] = [
        7: """
            DROP TRIGGER item_attribute_deleted; DROP TABLE item_attribute; DROP INDEX item_not_indexed;
            ALTER TABLE item DROP COLUMN indexed; DELETE FROM grdb_migrations WHERE identifier = 'v7';
            """,
        6: """
            DROP TRIGGER item_pair_deleted; DROP TABLE item_pair; DROP INDEX generic_password_not_paired;
            ALTER TABLE item DROP COLUMN paired; DELETE FROM grdb_migrations WHERE identifier = 'v6';
            """,
        5: """
            DROP TABLE sync_log; DELETE FROM meta WHERE key = 'sync-log';
            DELETE FROM grdb_migrations WHERE identifier = 'v5';
            """,
        4: """
            DROP INDEX key_by_tag; DROP INDEX key_by_label; DROP INDEX certificate_by_public_key_hash;
            ALTER TABLE item DROP COLUMN atag; ALTER TABLE item DROP COLUMN klbl; ALTER TABLE item DROP COLUMN pkhh;
            DELETE FROM grdb_migrations WHERE identifier = 'v4';
            """,
    ]

    /// Rewrites the database of `queue`, written by this library with no store open on it,
    /// as format `format` wrote it (3 to 6).
    static func rewrite(_ queue: DatabaseQueue, as format: Int) throws {
        precondition((3..<KeychainSchema.formatVersion).contains(format), "no undo down to format \(format)")
        let steps = (format + 1...KeychainSchema.formatVersion).reversed().map { undo[$0]! }
        try queue.write { db in
            try db.execute(sql: steps.joined(separator: "\n") + "\nUPDATE meta SET value = \(format) WHERE key = 'format';")
        }
    }
}
