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
/// - `keychain_sync_records(sequence, group_id, item_id, version, tombstone, record, stored_at, writer)`:
///   sealed item records. `sequence` (bigserial) orders them by commit within a group (appends
///   are serialized per group); `item_id` is an HMAC of the item's identity; `version` the
///   32-byte record version, whose byte order is the version order; one row per
///   (group_id, item_id, version), and older versions of an item are deleted when a newer one
///   arrives (from schema 2 by the trigger `keychain_sync_records_supersede`; from schema 3
///   only the rows of the role that appended it, which `writer` names). `stored_at` dates
///   tombstones for collection.
///
/// From schema 2, members connect with login roles in `keychain_sync_member`, which may read
/// every table and insert the columns members write, and never update or delete a row: the
/// deletions sync needs run as the schema's owner, in the superseding trigger and in
/// `keychain_sync_collect_tombstones(group, age)` (tombstones older than the retention, at
/// least 30 days whatever `age` says) and `keychain_sync_remove_join_request(group, device)`.
enum SyncServerSchema {
    /// The schema version this code creates and understands.
    static let version = 3

    /// The key of the advisory lock every migration holds ("kcsync" in ASCII): two clients
    /// migrating at once run one after the other.
    static let migrationLock: Int64 = 0x6B_63_73_79_6E_63

    /// The role members' login roles are granted (schema 2).
    package static let memberRole = "keychain_sync_member"

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
        ],
        // 2: least privilege. Members connect with login roles in keychain_sync_member, which may
        // read and append but never delete or rewrite a row; superseding moves into a trigger,
        // and the other deletions members need into functions that do only that, all three
        // running as the schema's owner with a pinned search_path.
        [
            """
            DO $$
            BEGIN
                IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'keychain_sync_member')
                   AND (SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user) THEN
                    CREATE ROLE keychain_sync_member NOLOGIN;
                END IF;
            EXCEPTION WHEN duplicate_object THEN
                NULL;
            END $$
            """,
            """
            CREATE FUNCTION keychain_sync_records_supersede() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
            BEGIN
                -- "stale", not "old": OLD is the trigger's own variable in PL/pgSQL.
                DELETE FROM keychain_sync_records AS stale
                USING (SELECT DISTINCT group_id, item_id FROM inserted) AS touched
                WHERE stale.group_id = touched.group_id AND stale.item_id = touched.item_id
                AND EXISTS (SELECT 1 FROM keychain_sync_records AS newer WHERE newer.group_id = stale.group_id
                            AND newer.item_id = stale.item_id AND newer.version > stale.version);
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER keychain_sync_records_supersede AFTER INSERT ON keychain_sync_records
            REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION keychain_sync_records_supersede()
            """,
            """
            CREATE FUNCTION keychain_sync_collect_tombstones(target bytea, age interval) RETURNS bigint
            LANGUAGE sql SECURITY DEFINER AS $$
                WITH collected AS (
                    DELETE FROM keychain_sync_records WHERE group_id = target AND tombstone
                    AND stored_at < now() - greatest(age, interval '30 days') RETURNING 1)
                SELECT count(*) FROM collected
            $$
            """,
            """
            CREATE FUNCTION keychain_sync_remove_join_request(target bytea, requester bytea) RETURNS void
            LANGUAGE sql SECURITY DEFINER AS $$
                DELETE FROM keychain_sync_join_requests WHERE group_id = target AND device = requester
            $$
            """,
            """
            DO $$
            DECLARE
                home name := (SELECT n.nspname FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
                              WHERE c.oid = 'keychain_sync_records'::regclass);
            BEGIN
                EXECUTE format('ALTER FUNCTION keychain_sync_records_supersede() SET search_path = pg_catalog, %I, pg_temp', home);
                EXECUTE format('ALTER FUNCTION keychain_sync_collect_tombstones(bytea, interval) SET search_path = pg_catalog, %I, pg_temp', home);
                EXECUTE format('ALTER FUNCTION keychain_sync_remove_join_request(bytea, bytea) SET search_path = pg_catalog, %I, pg_temp', home);
            END $$
            """,
            """
            REVOKE ALL ON FUNCTION keychain_sync_records_supersede(), keychain_sync_collect_tombstones(bytea, interval),
                keychain_sync_remove_join_request(bytea, bytea) FROM PUBLIC
            """,
            memberGrants,
        ],
        // 3: each record row names the role that appended it (`writer`, set by the server), and
        // an append supersedes only the older rows of its own role: a role that appends a
        // newer version of another member's item (a removed machine's, any version it likes)
        // no longer makes the database delete that member's row, nor hold back the item's
        // later versions, which the other roles still append. Collecting an expired tombstone
        // also removes the item's older rows of every role, which it had superseded.
        [
            "ALTER TABLE keychain_sync_records ADD COLUMN writer name NOT NULL DEFAULT current_user",
            // The append's check and the trigger look up an item's rows of one role. Without
            // an index on those columns the append was planned badly in two rounds of three of
            // Scripts/benchmark-sync (a push at half the speed, measured); with it, as fast as
            // before the column.
            "CREATE INDEX keychain_sync_records_by_writer ON keychain_sync_records (group_id, item_id, writer, version)",
            """
            CREATE OR REPLACE FUNCTION keychain_sync_records_supersede() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
            BEGIN
                DELETE FROM keychain_sync_records AS stale
                USING (SELECT DISTINCT group_id, item_id, writer FROM inserted) AS touched
                WHERE stale.group_id = touched.group_id AND stale.item_id = touched.item_id AND stale.writer = touched.writer
                AND EXISTS (SELECT 1 FROM keychain_sync_records AS newer WHERE newer.group_id = stale.group_id
                            AND newer.item_id = stale.item_id AND newer.writer = stale.writer AND newer.version > stale.version);
                RETURN NULL;
            END $$
            """,
            """
            CREATE OR REPLACE FUNCTION keychain_sync_collect_tombstones(target bytea, age interval) RETURNS bigint
            LANGUAGE sql SECURITY DEFINER AS $$
                WITH expired AS (
                    SELECT item_id, version FROM keychain_sync_records WHERE group_id = target AND tombstone
                    AND stored_at < now() - greatest(age, interval '30 days')),
                collected AS (
                    DELETE FROM keychain_sync_records AS doomed USING expired
                    WHERE doomed.group_id = target AND doomed.item_id = expired.item_id AND doomed.version <= expired.version
                    RETURNING doomed.tombstone)
                SELECT count(*) FILTER (WHERE tombstone) FROM collected
            $$
            """,
            // CREATE OR REPLACE drops a function's settings: the pinned search_path again.
            """
            DO $$
            DECLARE
                home name := (SELECT n.nspname FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
                              WHERE c.oid = 'keychain_sync_records'::regclass);
            BEGIN
                EXECUTE format('ALTER FUNCTION keychain_sync_records_supersede() SET search_path = pg_catalog, %I, pg_temp', home);
                EXECUTE format('ALTER FUNCTION keychain_sync_collect_tombstones(bytea, interval) SET search_path = pg_catalog, %I, pg_temp', home);
            END $$
            """,
        ],
    ]

    /// The rights of `keychain_sync_member`, granted by the tables' owner: read every table,
    /// insert the columns members write (the server sets a record's sequence and storage
    /// time), and call the two functions that delete. Run after every migration too, so that
    /// a role an administrator made after the tables gets them when the owner migrates again;
    /// does nothing for a role that does not own the tables or when the member role is missing.
    static let memberGrants = """
        DO $$
        DECLARE
            home name := (SELECT n.nspname FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
                          WHERE c.oid = 'keychain_sync_records'::regclass);
        BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'keychain_sync_member')
               OR NOT pg_has_role((SELECT relowner FROM pg_class WHERE oid = 'keychain_sync_records'::regclass), 'USAGE') THEN
                RETURN;
            END IF;
            EXECUTE format('GRANT USAGE ON SCHEMA %I TO keychain_sync_member', home);
            GRANT SELECT ON keychain_sync_schema, keychain_sync_groups, keychain_sync_rosters, keychain_sync_key_wraps,
                keychain_sync_join_requests, keychain_sync_records TO keychain_sync_member;
            GRANT INSERT (group_id, genesis) ON keychain_sync_groups TO keychain_sync_member;
            GRANT INSERT (group_id, epoch, roster) ON keychain_sync_rosters TO keychain_sync_member;
            GRANT INSERT (group_id, epoch, device, wrap) ON keychain_sync_key_wraps TO keychain_sync_member;
            GRANT INSERT (group_id, device, request) ON keychain_sync_join_requests TO keychain_sync_member;
            GRANT INSERT (group_id, item_id, version, tombstone, record) ON keychain_sync_records TO keychain_sync_member;
            GRANT USAGE ON SEQUENCE keychain_sync_records_sequence_seq TO keychain_sync_member;
            GRANT EXECUTE ON FUNCTION keychain_sync_collect_tombstones(bytea, interval),
                keychain_sync_remove_join_request(bytea, bytea) TO keychain_sync_member;
        END $$
        """

    /// The NOTIFY channel of a group: a fixed prefix and the group id in hex (at most 24
    /// bytes of id keep it under PostgreSQL's 63-byte identifiers).
    static func channel(for group: Data) -> String {
        "keychain_sync_" + group.map { String(format: "%02x", $0) }.joined()
    }

    /// The largest group id the channel names allow.
    static let maximumGroupIDLength = 24

    /// Creates or updates the schema in one transaction under ``migrationLock``; fails with
    /// ``SyncServerError/schemaTooNew(found:known:)`` (changing nothing) when the server's is newer.
    /// Returns the schema's version afterwards.
    @discardableResult
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            // Nothing is created when the schema is there already: a member's role, which may
            // not create tables, runs this too (sync setup) and must find nothing to do. Read
            // from the catalog table, under this statement's snapshot: a name lookup
            // (to_regclass) may use a catalog cache from before the lock wait and miss a table
            // that a concurrent migration has just committed.
            let exists = try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables
                               WHERE schemaname = current_schema() AND tablename = 'keychain_sync_schema')
                """, logger: logger).collect()
            if try exists.first?.decode(Bool.self) != true {
                try await connection.query(
                    "CREATE TABLE keychain_sync_schema (version integer PRIMARY KEY)", logger: logger)
            }
            let found = try await currentVersion(connection, logger: logger)
            guard found <= version else { throw SyncServerError.schemaTooNew(found: found, known: version) }
            for next in stride(from: found + 1, through: version, by: 1) {
                for statement in migrations[next - 1] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO keychain_sync_schema (version) VALUES (\(next))", logger: logger)
                logger.info("Sync server schema migrated", metadata: ["version": "\(next)"])
            }
            if found == version, version >= 2 {
                try await connection.query(PostgresQuery(unsafeSQL: memberGrants), logger: logger)
            }
            return max(found, version)
        }
    }

    /// The schema's version on the server: 0 when it has none.
    static func currentVersion(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.query(
            "SELECT coalesce(max(version), 0)::bigint FROM keychain_sync_schema", logger: logger).collect()
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }
}
