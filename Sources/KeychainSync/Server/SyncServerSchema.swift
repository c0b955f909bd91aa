import Foundation
import PostgresNIO

/// The sync server's tables, and the migrations that make them.
///
/// The server holds only what members cannot hide from it: opaque ids, versions, sequence
/// numbers, public roster and request bytes, and ciphertext. No item names or accounts: those
/// are inside the sealed records. Devices' names and public keys are inside the signed (not
/// sealed) roster and request bytes, which the server can read though this layer never does. Every table is prefixed `keychain_sync_`, so the schema can share a database.
///
/// - `keychain_sync_schema(version)`: one row per applied migration; the highest is the
///   schema's version. A version above ``version`` is ``SyncServerError/schemaTooNew(found:known:)``.
/// - `keychain_sync_groups(group_id, genesis, created_at)`: a sync group's random id and its
///   genesis roster (signed by the founder).
/// - `keychain_sync_rosters(group_id, epoch, roster)`: the signed roster of each epoch; epoch 0
///   is the genesis, stored with the group.
/// - `keychain_sync_key_wraps(group_id, epoch, device, wrap)`: the group keys of an epoch,
///   sealed (HPKE) to one member device's public key.
/// - `keychain_sync_join_requests(group_id, device, request, created_at)`: a device's signed
///   request to join, until a member approves it or it is withdrawn.
/// - `keychain_sync_records(sequence, group_id, item_id, version, tombstone, record, stored_at)`:
///   sealed item records. `sequence` (bigserial) orders them by commit within a group (appends
///   are serialized per group); `item_id` is an HMAC of the item's identity; `version` the
///   32-byte record version, whose byte order is the version order; one row per
///   (group_id, item_id, version), and older versions of an item are deleted when a newer one
///   arrives. `stored_at` dates tombstones for collection.
enum SyncServerSchema {
    /// The schema version this code creates and understands.
    static let version = 1

    /// The key of the advisory lock every migration holds ("kcsync" in ASCII): two clients
    /// migrating at once run one after the other.
    static let migrationLock: Int64 = 0x6B_63_73_79_6E_63

    /// The advisory lock class (first key of the two-key form) that serializes one group's appends.
    static let appendLockClass: Int32 = 0x6B63_7379

    /// The statements of migration n+1 at index n. Fixed text: nothing here comes from input.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE keychain_sync_groups (
                group_id bytea PRIMARY KEY,
                genesis bytea NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now())
            """,
            """
            CREATE TABLE keychain_sync_rosters (
                group_id bytea NOT NULL REFERENCES keychain_sync_groups ON DELETE CASCADE,
                epoch bigint NOT NULL CHECK (epoch >= 0),
                roster bytea NOT NULL,
                PRIMARY KEY (group_id, epoch))
            """,
            """
            CREATE TABLE keychain_sync_key_wraps (
                group_id bytea NOT NULL,
                epoch bigint NOT NULL,
                device bytea NOT NULL,
                wrap bytea NOT NULL,
                PRIMARY KEY (group_id, device, epoch),
                FOREIGN KEY (group_id, epoch) REFERENCES keychain_sync_rosters ON DELETE CASCADE)
            """,
            """
            CREATE TABLE keychain_sync_join_requests (
                group_id bytea NOT NULL REFERENCES keychain_sync_groups ON DELETE CASCADE,
                device bytea NOT NULL,
                request bytea NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (group_id, device))
            """,
            """
            CREATE TABLE keychain_sync_records (
                sequence bigserial PRIMARY KEY,
                group_id bytea NOT NULL REFERENCES keychain_sync_groups ON DELETE CASCADE,
                item_id bytea NOT NULL,
                version bytea NOT NULL,
                tombstone boolean NOT NULL,
                record bytea NOT NULL,
                stored_at timestamptz NOT NULL DEFAULT now(),
                UNIQUE (group_id, item_id, version))
            """,
            "CREATE INDEX keychain_sync_records_by_group ON keychain_sync_records (group_id, sequence)",
        ]
    ]

    /// The NOTIFY channel of a group: a fixed prefix and the group id in hex (at most 24
    /// bytes of id keep it under PostgreSQL's 63-byte identifiers).
    static func channel(for group: Data) -> String {
        "keychain_sync_" + group.map { String(format: "%02x", $0) }.joined()
    }

    /// The largest group id the channel names allow.
    static let maximumGroupIDLength = 24

    /// Creates or updates the schema in one transaction under ``migrationLock``; fails with
    /// ``SyncServerError/schemaTooNew(found:known:)`` (changing nothing) when the server's is newer.
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS keychain_sync_schema (version integer PRIMARY KEY)", logger: logger)
            let found = try await currentVersion(connection, logger: logger)
            guard found <= version else { throw SyncServerError.schemaTooNew(found: found, known: version) }
            for next in stride(from: found + 1, through: version, by: 1) {
                for statement in migrations[next - 1] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO keychain_sync_schema (version) VALUES (\(next))", logger: logger)
                logger.info("Sync server schema migrated", metadata: ["version": "\(next)"])
            }
        }
    }

    /// The schema's version on the server: 0 when it has none.
    static func currentVersion(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.query(
            "SELECT coalesce(max(version), 0)::bigint FROM keychain_sync_schema", logger: logger).collect()
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }
}
