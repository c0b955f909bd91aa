import Foundation
import PostgresNIO

/// One record as the server stores it: opaque bytes and the columns members check them against.
package struct ServerRecord: Sendable, Equatable {
    /// The server's order of commit within the group.
    package let sequence: Int64
    package let itemID: Data
    package let version: Data
    package let isTombstone: Bool
    package let record: Data
}

/// The sync server: a PostgreSQL database holding groups, rosters, key wraps, join requests
/// and sealed records as opaque bytes (see ``SyncServerSchema`` for the tables).
///
/// Calls run one at a time on one connection, made again on the next call after it broke
/// (a call that found it broken fails with ``SyncServerError/unreachable(_:)``). Every value
/// is bound as a parameter. ``changes(_:)`` listens on connections of its own.
package actor SyncServer {
    private let connector: SyncServerConnector
    private let logger: Logger
    private var connection: PostgresConnection?
    /// What tells the operations on ``connection`` that it closed.
    private var connectionClosing: ConnectionCloseSignal?
    private var isClosed = false
    /// Calls wait here for their turn: a transaction must not interleave with another call's queries.
    private var isBusy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var listeners: [Int: NotificationListener] = [:]
    private var nextListenerID = 0

    /// How long one call may wait for the server once connected.
    private let operationTimeout: Duration
    /// The server's schema version, read at connect and after ``migrate()``: from 2 the
    /// database supersedes, collects and removes itself, members having no DELETE.
    private var schemaVersion = 0

    private init(connector: SyncServerConnector, logger: Logger, operationTimeout: Duration) {
        self.connector = connector
        self.logger = logger
        self.operationTimeout = operationTimeout
    }

    /// Connects to the server (``SyncServerError/unreachable(_:)`` within seconds when it
    /// cannot) and checks that its schema is not newer than this code's. A call that gets no
    /// answer within `operationTimeout` fails with ``SyncServerError/unreachable(_:)`` and
    /// drops the connection.
    package static func connect(
        _ address: SyncServerAddress, logger: Logger, operationTimeout: Duration = .seconds(30)
    ) async throws(SyncServerError) -> SyncServer {
        let server = SyncServer(
            connector: try SyncServerConnector(address: address, logger: logger), logger: logger,
            operationTimeout: operationTimeout)
        do {
            try await server.checkSchemaVersion()
        } catch {
            await server.close()
            throw error
        }
        return server
    }

    /// Fails with ``SyncServerError/schemaTooNew(found:known:)`` when the server's schema is
    /// newer than this code's; a server without the schema yet is fine (``migrate()`` makes it).
    private func checkSchemaVersion() async throws(SyncServerError) {
        schemaVersion = try await withConnection { connection, logger in
            let exists = try await connection.query(
                "SELECT to_regclass('keychain_sync_schema') IS NOT NULL", logger: logger).collect()
            guard try exists.first?.decode(Bool.self) == true else { return 0 }
            let found = try await SyncServerSchema.currentVersion(connection, logger: logger)
            guard found <= SyncServerSchema.version else {
                throw SyncServerError.schemaTooNew(found: found, known: SyncServerSchema.version)
            }
            return found
        }
    }

    /// Whether the role this connection uses may delete, update or truncate rows of the sync
    /// tables (it owns them, is a superuser, or was granted more than members need): then any
    /// machine using it can delete other members' rosters, key wraps and records.
    package func connectedRoleCanRewriteRows() async throws(SyncServerError) -> Bool {
        try await withConnection { connection, logger in
            let rows = try await connection.query(
                """
                SELECT coalesce(bool_or(has_table_privilege(t, 'DELETE') OR has_table_privilege(t, 'UPDATE')
                                        OR has_table_privilege(t, 'TRUNCATE')), false)
                FROM unnest(ARRAY['keychain_sync_groups', 'keychain_sync_rosters', 'keychain_sync_key_wraps',
                                  'keychain_sync_join_requests', 'keychain_sync_records']) AS t
                WHERE to_regclass(t) IS NOT NULL
                """, logger: logger
            ).collect()
            return try rows.first?.decode(Bool.self) ?? false
        }
    }

    /// Whether the server holds the sync tables (a restored backup from before they were made
    /// does not).
    package func hasSchema() async throws(SyncServerError) -> Bool {
        try await withConnection { connection, logger in
            let rows = try await connection.query(
                "SELECT to_regclass('keychain_sync_groups') IS NOT NULL", logger: logger).collect()
            return try rows.first?.decode(Bool.self) ?? false
        }
    }

    /// Whether the role members' login roles are granted (``SyncServerSchema/memberRole``)
    /// exists on the server.
    package func memberRoleExists() async throws(SyncServerError) -> Bool {
        try await withConnection { connection, logger in
            let rows = try await connection.query(
                "SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = \(SyncServerSchema.memberRole))", logger: logger).collect()
            return try rows.first?.decode(Bool.self) ?? false
        }
    }

    /// The database role this connection uses.
    package var role: String { connector.address.user }

    /// Closes the connection and ends every ``changes(_:)`` stream. Later calls fail with
    /// ``SyncServerError/closed``.
    package func close() async {
        isClosed = true
        for listener in listeners.values { listener.stop() }
        listeners = [:]
        let connection = self.connection
        self.connection = nil
        try? await connection?.close()
        // Calls waiting for their turn find the server closed.
        let waiting = self.waiting
        self.waiting = []
        isBusy = false
        for waiter in waiting { waiter.resume() }
    }

    deinit {
        for listener in listeners.values { listener.stop() }
        let _: EventLoopFuture<Void>? = connection?.close()
    }

    /// Creates or updates the schema. Idempotent; two clients running it at once take turns.
    package func migrate() async throws(SyncServerError) {
        schemaVersion = try await withConnection { connection, logger in
            try await SyncServerSchema.migrate(connection, logger: logger)
        }
    }

    /// Creates a group with its genesis roster, which is also the group's roster of epoch 0.
    /// ``SyncServerError/alreadyExists`` when the group exists.
    package func createGroup(_ group: Data, genesis: Data) async throws(SyncServerError) {
        try Self.check(group: group)
        try await withConnection { connection, logger in
            try await connection.withTransaction(logger: logger) { connection in
                try await connection.query(
                    "INSERT INTO keychain_sync_groups (group_id, genesis) VALUES (\(group), \(genesis))", logger: logger)
                try await connection.query(
                    "INSERT INTO keychain_sync_rosters (group_id, epoch, roster) VALUES (\(group), 0, \(genesis))",
                    logger: logger)
            }
        }
    }

    /// Every group's id, oldest first.
    package func groups() async throws(SyncServerError) -> [Data] {
        try await withConnection { connection, logger in
            try await connection.query("SELECT group_id FROM keychain_sync_groups ORDER BY created_at, group_id", logger: logger)
                .collect().map { try $0.decode(Data.self) }
        }
    }

    /// The group's rosters with an epoch above `epoch`, in order (-1 for all, genesis included).
    /// ``SyncServerError/notFound`` when there is no such group.
    package func rosters(_ group: Data, after epoch: Int64) async throws(SyncServerError) -> [(epoch: Int64, roster: Data)] {
        try Self.check(group: group)
        return try await withConnection { connection, logger in
            try await Self.requireGroup(group, connection, logger)
            return try await connection.query(
                "SELECT epoch, roster FROM keychain_sync_rosters WHERE group_id = \(group) AND epoch > \(epoch) ORDER BY epoch",
                logger: logger
            ).collect().map { row in
                let (epoch, roster) = try row.decode((Int64, Data).self)
                return (epoch: epoch, roster: roster)
            }
        }
    }

    /// Stores the roster of a new epoch with the key wraps for its members, in one transaction,
    /// and notifies the group. ``SyncServerError/alreadyExists`` (nothing stored) when that
    /// epoch exists, ``SyncServerError/notFound`` when the group does not.
    ///
    /// With `readThrough`, the roster is stored only if the group holds no record with a higher
    /// sequence (``SyncServerError/recordsAppended``, nothing stored, otherwise): a removal
    /// vouches for the removed device's records the remover read, so it must have read them
    /// all. The check holds the lock ``append(_:records:)`` takes, so no append commits
    /// between it and the roster: records appended later have higher sequences than any the
    /// remover read and commit after the roster does.
    package func publishRoster(
        _ group: Data, epoch: Int64, roster: Data, wraps: [(device: Data, wrap: Data)], readThrough: Int64? = nil
    ) async throws(SyncServerError) {
        try Self.check(group: group)
        guard epoch >= 0 else { throw .invalidArgument("an epoch cannot be negative") }
        let channel = SyncServerSchema.channel(for: group)
        try await withConnection { connection, logger in
            try await connection.withTransaction(logger: logger) { connection in
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(\(SyncServerSchema.appendLockClass), hashtext(\(channel)))", logger: logger)
                if let readThrough {
                    let rows = try await connection.query(
                        "SELECT coalesce(max(sequence), 0)::bigint FROM keychain_sync_records WHERE group_id = \(group)",
                        logger: logger
                    ).collect()
                    guard try (rows.first?.decode(Int64.self) ?? 0) <= readThrough else {
                        throw SyncServerError.recordsAppended
                    }
                }
                try await connection.query(
                    "INSERT INTO keychain_sync_rosters (group_id, epoch, roster) VALUES (\(group), \(epoch), \(roster))",
                    logger: logger)
                for (device, wrap) in wraps {
                    try await connection.query(
                        """
                        INSERT INTO keychain_sync_key_wraps (group_id, epoch, device, wrap)
                        VALUES (\(group), \(epoch), \(device), \(wrap))
                        """, logger: logger)
                }
                try await Self.notify(group, connection, logger)
            }
        }
    }

    /// The key wraps addressed to `device`, oldest epoch first.
    package func keyWraps(_ group: Data, device: Data) async throws(SyncServerError) -> [(epoch: Int64, wrap: Data)] {
        try Self.check(group: group)
        return try await withConnection { connection, logger in
            try await connection.query(
                "SELECT epoch, wrap FROM keychain_sync_key_wraps WHERE group_id = \(group) AND device = \(device) ORDER BY epoch",
                logger: logger
            ).collect().map { row in
                let (epoch, wrap) = try row.decode((Int64, Data).self)
                return (epoch: epoch, wrap: wrap)
            }
        }
    }

    /// The devices the group's key wraps of `epoch` are addressed to.
    package func keyWrapRecipients(_ group: Data, epoch: Int64) async throws(SyncServerError) -> Set<Data> {
        try Self.check(group: group)
        return try await withConnection { connection, logger in
            Set(try await connection.query(
                "SELECT device FROM keychain_sync_key_wraps WHERE group_id = \(group) AND epoch = \(epoch)", logger: logger
            ).collect().map { try $0.decode(Data.self) })
        }
    }

    /// Stores key wraps of an epoch whose roster the server holds, keeping any already there
    /// for the same device, and notifies the group. ``SyncServerError/notFound`` when there is
    /// no such roster.
    package func addKeyWraps(_ group: Data, epoch: Int64, wraps: [(device: Data, wrap: Data)]) async throws(SyncServerError) {
        try Self.check(group: group)
        try await withConnection { connection, logger in
            try await connection.withTransaction(logger: logger) { connection in
                for (device, wrap) in wraps {
                    try await connection.query(
                        """
                        INSERT INTO keychain_sync_key_wraps (group_id, epoch, device, wrap)
                        VALUES (\(group), \(epoch), \(device), \(wrap)) ON CONFLICT DO NOTHING
                        """, logger: logger)
                }
                try await Self.notify(group, connection, logger)
            }
        }
    }

    /// Posts (or replaces) a device's request to join, and notifies the group's members.
    /// ``SyncServerError/notFound`` when there is no such group.
    package func postJoinRequest(_ group: Data, device: Data, request: Data) async throws(SyncServerError) {
        try Self.check(group: group)
        let leastPrivilege = schemaVersion >= 2
        try await withConnection { connection, logger in
            try await connection.withTransaction(logger: logger) { connection in
                if leastPrivilege {
                    // Members may not update rows: the old request is removed, the new one posted.
                    try await connection.query(
                        "SELECT keychain_sync_remove_join_request(\(group), \(device))", logger: logger)
                    try await connection.query(
                        "INSERT INTO keychain_sync_join_requests (group_id, device, request) VALUES (\(group), \(device), \(request))",
                        logger: logger)
                } else {
                    try await connection.query(
                        """
                        INSERT INTO keychain_sync_join_requests (group_id, device, request) VALUES (\(group), \(device), \(request))
                        ON CONFLICT (group_id, device) DO UPDATE SET request = excluded.request, created_at = now()
                        """, logger: logger)
                }
                try await Self.notify(group, connection, logger)
            }
        }
    }

    /// The pending join requests, oldest first.
    package func joinRequests(_ group: Data) async throws(SyncServerError) -> [(device: Data, request: Data)] {
        try Self.check(group: group)
        return try await withConnection { connection, logger in
            try await connection.query(
                "SELECT device, request FROM keychain_sync_join_requests WHERE group_id = \(group) ORDER BY created_at, device",
                logger: logger
            ).collect().map { row in
                let (device, request) = try row.decode((Data, Data).self)
                return (device: device, request: request)
            }
        }
    }

    /// Removes a device's join request; nothing happens when there is none.
    package func removeJoinRequest(_ group: Data, device: Data) async throws(SyncServerError) {
        try Self.check(group: group)
        let leastPrivilege = schemaVersion >= 2
        try await withConnection { connection, logger in
            if leastPrivilege {
                _ = try await connection.query("SELECT keychain_sync_remove_join_request(\(group), \(device))", logger: logger)
            } else {
                _ = try await connection.query(
                    "DELETE FROM keychain_sync_join_requests WHERE group_id = \(group) AND device = \(device)", logger: logger)
            }
        }
    }

    /// Stores records in one transaction, serialized per group (`pg_advisory_xact_lock`) so that
    /// sequence order is commit order: a reader never skips a lower sequence committed later.
    /// A record already stored (same group, item and version) is ignored; rows of the same
    /// item with a lower version are deleted (superseded), and a record older than one already
    /// stored (or than another of the batch for the same item) is not kept; from schema 3 both
    /// only among the rows of this connection's role. Notifies the group.
    /// Returns the group's highest sequence after the append (0 when it holds none).
    /// ``SyncServerError/notFound`` when there is no such group.
    ///
    /// The whole batch is one INSERT and one DELETE: the records travel as four arrays
    /// (`unnest`), so a batch costs a few round trips and two plans, whatever its size.
    package func append(
        _ group: Data, records: [(itemID: Data, version: Data, isTombstone: Bool, record: Data)]
    ) async throws(SyncServerError) -> Int64 {
        try Self.check(group: group)
        let channel = SyncServerSchema.channel(for: group)
        let itemIDs = records.map { ByteBuffer(bytes: $0.itemID) }
        let versions = records.map { ByteBuffer(bytes: $0.version) }
        let tombstones = records.map(\.isTombstone)
        let sealed = records.map { ByteBuffer(bytes: $0.record) }
        // From schema 2 the table's trigger removes superseded versions (members may not delete).
        let superseding = schemaVersion < 2
        // From schema 3 only a newer row of this connection's own role keeps a record out:
        // another role's (a removed machine's, dated far ahead) must not hold back the item.
        let ownRows = schemaVersion >= 3 ? " AND stored.writer = current_user" : ""
        return try await withConnection { connection, logger in
            try await connection.withTransaction(logger: logger) { connection in
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(\(SyncServerSchema.appendLockClass), hashtext(\(channel)))", logger: logger)
                if !records.isEmpty {
                    // Of each item, only the newest version of the batch (the first of equal
                    // ones), and only when it is newer than the stored one. The lock above
                    // keeps every other append of the group out of this snapshot.
                    try await connection.query(
                        """
                        WITH incoming AS (
                            SELECT DISTINCT ON (item_id) item_id, version, tombstone, record, position
                            FROM unnest(\(itemIDs)::bytea[], \(versions)::bytea[], \(tombstones)::boolean[], \(sealed)::bytea[])
                                WITH ORDINALITY AS batch (item_id, version, tombstone, record, position)
                            ORDER BY item_id, version DESC, position)
                        INSERT INTO keychain_sync_records (group_id, item_id, version, tombstone, record)
                        SELECT \(group), item_id, version, tombstone, record FROM incoming WHERE NOT EXISTS (
                            SELECT 1 FROM keychain_sync_records AS stored WHERE stored.group_id = \(group)
                            AND stored.item_id = incoming.item_id AND stored.version >= incoming.version\(unescaped: ownRows))
                        ORDER BY position
                        ON CONFLICT (group_id, item_id, version) DO NOTHING
                        """, logger: logger)
                }
                if superseding, !records.isEmpty {
                    // The versions the batch superseded, in one statement.
                    try await connection.query(
                        """
                        DELETE FROM keychain_sync_records AS old WHERE old.group_id = \(group) AND old.item_id = ANY(\(itemIDs)::bytea[])
                        AND EXISTS (SELECT 1 FROM keychain_sync_records AS newer WHERE newer.group_id = old.group_id
                                    AND newer.item_id = old.item_id AND newer.version > old.version)
                        """, logger: logger)
                }
                try await Self.notify(group, connection, logger)
                let rows = try await connection.query(
                    "SELECT coalesce(max(sequence), 0)::bigint FROM keychain_sync_records WHERE group_id = \(group)",
                    logger: logger
                ).collect()
                return try rows.first?.decode(Int64.self) ?? 0
            }
        }
    }

    /// Up to `limit` (1 to 10 000) of the group's records with a sequence above `sequence`, in order.
    package func records(_ group: Data, after sequence: Int64, limit: Int) async throws(SyncServerError) -> [ServerRecord] {
        try Self.check(group: group)
        guard (1...10_000).contains(limit) else { throw .invalidArgument("the limit must be from 1 to 10000") }
        let count = Int64(limit)
        return try await withConnection { connection, logger in
            try await connection.query(
                """
                SELECT sequence, item_id, version, tombstone, record FROM keychain_sync_records
                WHERE group_id = \(group) AND sequence > \(sequence) ORDER BY sequence LIMIT \(count)
                """, logger: logger
            ).collect().map { row in
                let (sequence, itemID, version, isTombstone, record) = try row.decode((Int64, Data, Data, Bool, Data).self)
                return ServerRecord(sequence: sequence, itemID: itemID, version: version, isTombstone: isTombstone, record: record)
            }
        }
    }

    /// Deletes the group's tombstones stored longer ago than `olderThan`; returns how many.
    /// Records that are not tombstones are never collected. From schema 2 the server's own
    /// function does it, which never collects one younger than the 30-day retention.
    package func collectTombstones(_ group: Data, olderThan age: Duration) async throws(SyncServerError) -> Int {
        try Self.check(group: group)
        guard age >= .zero else { throw .invalidArgument("the age cannot be negative") }
        let seconds = Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18
        let leastPrivilege = schemaVersion >= 2
        return try await withConnection { connection, logger in
            let rows = try await connection.query(leastPrivilege ? """
                SELECT keychain_sync_collect_tombstones(\(group), make_interval(secs => \(seconds)))::bigint
                """ : """
                WITH collected AS (
                    DELETE FROM keychain_sync_records WHERE group_id = \(group) AND tombstone
                    AND stored_at < now() - make_interval(secs => \(seconds)) RETURNING 1)
                SELECT count(*)::bigint FROM collected
                """, logger: logger
            ).collect()
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }
    }

    /// Yields once per NOTIFY on the group's channel (an append, a roster, a join request),
    /// and once after every (re)connection of its listening connection, so that the caller
    /// re-reads what it may have missed. Reconnects with capped, jittered exponential
    /// backoff; ends when the server is closed or the caller stops iterating.
    package func changes(_ group: Data) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        guard !isClosed, (try? Self.check(group: group)) != nil else {
            continuation.finish()
            return stream
        }
        let id = nextListenerID
        nextListenerID += 1
        let listener = NotificationListener(
            connector: connector, channel: SyncServerSchema.channel(for: group), continuation: continuation, logger: logger)
        listeners[id] = listener
        continuation.onTermination = { [weak self] _ in
            listener.stop()
            Task { await self?.forgetListener(id) }
        }
        return stream
    }

    private func forgetListener(_ id: Int) {
        listeners[id] = nil
    }

    // MARK: - One call at a time, on a connection made again after a failure

    private func withConnection<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> Result
    ) async throws(SyncServerError) -> Result {
        await takeTurn()
        defer { releaseTurn() }
        guard !isClosed else { throw .closed }
        let connection: PostgresConnection
        if let current = self.connection, !current.isClosed {
            connection = current
        } else {
            self.connection = nil
            connection = try await connector.connect()
            guard !isClosed else {
                try? await connection.close()
                throw .closed
            }
            self.connection = connection
            self.connectionClosing = ConnectionCloseSignal(connection.closeFuture)
        }
        let logger = self.logger
        do {
            return try await withTimeout(operationTimeout, onTimeout: { let _: EventLoopFuture<Void> = connection.close() },
                                         abandonedBy: connectionClosing) {
                try await body(connection, logger)
            }
        } catch {
            let failure = SyncServerError(error)
            if failure.isConnectionLost || connection.isClosed {
                logger.debug("Sync server connection lost", metadata: ["reason": "\(failure)"])
                if self.connection === connection { self.connection = nil }
                try? await connection.close()
            }
            throw failure
        }
    }

    private func takeTurn() async {
        guard isBusy else {
            isBusy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func releaseTurn() {
        if waiting.isEmpty {
            isBusy = false
        } else {
            // The turn passes straight to the next caller, busy all along.
            waiting.removeFirst().resume()
        }
    }

    private static func check(group: Data) throws(SyncServerError) {
        guard (1...SyncServerSchema.maximumGroupIDLength).contains(group.count) else {
            throw .invalidArgument("a group id must be 1 to \(SyncServerSchema.maximumGroupIDLength) bytes")
        }
    }

    private static func requireGroup(_ group: Data, _ connection: PostgresConnection, _ logger: Logger) async throws {
        let rows = try await connection.query(
            "SELECT 1 FROM keychain_sync_groups WHERE group_id = \(group)", logger: logger).collect()
        guard !rows.isEmpty else { throw SyncServerError.notFound }
    }

    private static func notify(_ group: Data, _ connection: PostgresConnection, _ logger: Logger) async throws {
        let channel = SyncServerSchema.channel(for: group)
        try await connection.query("SELECT pg_notify(\(channel), '')", logger: logger)
    }

    // MARK: - Fork detection

    /// The SHA-256 of each of the group's stored rosters, by epoch, genesis included: members
    /// compare them with the rosters they hold, reading again only one that differs.
    /// ``SyncServerError/notFound`` when there is no such group.
    package func rosterDigests(_ group: Data) async throws(SyncServerError) -> [(epoch: Int64, digest: Data)] {
        try Self.check(group: group)
        return try await withConnection { connection, logger in
            try await Self.requireGroup(group, connection, logger)
            return try await connection.query(
                "SELECT epoch, sha256(roster) FROM keychain_sync_rosters WHERE group_id = \(group) ORDER BY epoch",
                logger: logger
            ).collect().map { row in
                let (epoch, digest) = try row.decode((Int64, Data).self)
                return (epoch: epoch, digest: digest)
            }
        }
    }

    /// The group's roster of `epoch`, nil when there is none.
    package func roster(_ group: Data, epoch: Int64) async throws(SyncServerError) -> Data? {
        try Self.check(group: group)
        return try await withConnection { connection, logger in
            try await connection.query(
                "SELECT roster FROM keychain_sync_rosters WHERE group_id = \(group) AND epoch = \(epoch)", logger: logger
            ).collect().first.map { try $0.decode(Data.self) }
        }
    }
}

/// What a member compares with its own state to notice a server that lost records (a restored
/// backup, a dropped row): a digest of the group's latest (item id, version) pairs and the
/// group's highest sequence.
package struct ServerRecordSetSummary: Sendable, Equatable {
    /// How many items the digest covers.
    package let count: Int64
    /// SHA-256 over each item's id and latest version, in item id order (``RecordSetDigest``).
    package let digest: Data
    /// The group's highest sequence (0 when it holds no record), old tombstones included.
    package let maxSequence: Int64
    /// The group's highest roster epoch (-1 when it has none).
    package let maxEpoch: Int64
}

/// The latest row of one item on the server, without its record bytes.
package struct ServerLatestRecord: Sendable, Equatable {
    package let sequence: Int64
    package let itemID: Data
    package let version: Data
    package let isTombstone: Bool
}

extension SyncServer {
    /// The digest of the group's latest (item id, version) pairs, computed by the server in one
    /// query with the highest sequence and roster epoch: the completeness check (the agent makes it once per interval). Tombstones whose version's first 8 bytes (its time,
    /// big-endian) order below `tombstonesFrom` are left out, as members leave out theirs, so
    /// that collecting expired tombstones never makes the two differ.
    package func recordSetSummary(_ group: Data, tombstonesFrom cutoff: Data) async throws(SyncServerError) -> ServerRecordSetSummary {
        try Self.check(group: group)
        return try await withConnection { connection, logger in
            let rows = try await connection.query(
                """
                WITH latest AS (
                    SELECT DISTINCT ON (item_id) item_id, version, tombstone FROM keychain_sync_records
                    WHERE group_id = \(group) ORDER BY item_id, version DESC)
                SELECT count(*)::bigint,
                       sha256(coalesce(string_agg(item_id || version, ''::bytea ORDER BY item_id), ''::bytea)),
                       (SELECT coalesce(max(sequence), 0)::bigint FROM keychain_sync_records WHERE group_id = \(group)),
                       (SELECT coalesce(max(epoch), -1)::bigint FROM keychain_sync_rosters WHERE group_id = \(group))
                FROM latest WHERE NOT tombstone OR substring(version FROM 1 FOR 8) >= \(cutoff)
                """, logger: logger
            ).collect()
            guard let row = rows.first else { throw SyncServerError.invalidArgument("the server returned no summary") }
            let (count, digest, maxSequence, maxEpoch) = try row.decode((Int64, Data, Int64, Int64).self)
            return ServerRecordSetSummary(count: count, digest: digest, maxSequence: maxSequence, maxEpoch: maxEpoch)
        }
    }

    /// The group's highest sequence (0 when it holds no record): one lookup in the
    /// (group, sequence) index, which a pass without the full completeness check makes to
    /// notice at once a server whose record numbers went back below its cursor.
    package func maxSequence(_ group: Data) async throws(SyncServerError) -> Int64 {
        try Self.check(group: group)
        return try await withConnection { connection, logger in
            let rows = try await connection.query(
                "SELECT coalesce(max(sequence), 0)::bigint FROM keychain_sync_records WHERE group_id = \(group)",
                logger: logger
            ).collect()
            return try rows.first?.decode(Int64.self) ?? 0
        }
    }

    /// The latest row of every item of the group (old tombstones included), in item id order,
    /// with the group's highest sequence, read in one statement (one snapshot): what a member
    /// reconciles against when the summaries differ. About 80 bytes per item.
    package func latestRecords(_ group: Data) async throws(SyncServerError) -> (maxSequence: Int64, records: [ServerLatestRecord]) {
        try Self.check(group: group)
        return try await withConnection { connection, logger in
            let rows = try await connection.query(
                """
                WITH top AS (SELECT coalesce(max(sequence), 0)::bigint AS sequence FROM keychain_sync_records
                             WHERE group_id = \(group))
                SELECT top.sequence, latest.sequence, latest.item_id, latest.version, latest.tombstone
                FROM top LEFT JOIN (
                    SELECT DISTINCT ON (item_id) sequence, item_id, version, tombstone FROM keychain_sync_records
                    WHERE group_id = \(group) ORDER BY item_id, version DESC) AS latest ON true
                ORDER BY latest.item_id
                """, logger: logger
            ).collect()
            var maxSequence: Int64 = 0
            var records: [ServerLatestRecord] = []
            records.reserveCapacity(rows.count)
            for row in rows {
                let (top, sequence, itemID, version, isTombstone) = try row.decode((Int64, Int64?, Data?, Data?, Bool?).self)
                maxSequence = top
                guard let sequence, let itemID, let version, let isTombstone else { continue }
                records.append(ServerLatestRecord(sequence: sequence, itemID: itemID, version: version, isTombstone: isTombstone))
            }
            return (maxSequence, records)
        }
    }
}
