import Foundation
import Logging
import PostgresNIO
import TestSupport

/// The benchmark's own connection to its PostgreSQL: it follows a push as the rows arrive
/// (a count every few milliseconds costs the server far less than a psql process would),
/// sets the server's durability, and reads back what the agent stored for the anchors.
final class BenchmarkDatabase {
    private let connection: PostgresConnection
    static let logger = Logger(label: "keychain-sync-benchmark")

    init(_ server: PostgresTestServer) async throws {
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: server.port, username: PostgresTestServer.user, password: server.password,
            database: PostgresTestServer.database, tls: .disable)
        connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Self.logger)
    }

    func close() async {
        try? await connection.close()
    }

    /// Turns fsync (and full-page writes with it) on or off, in effect for every session from
    /// now on (`ALTER SYSTEM`, then a reload); checks that the server took it.
    func setFsync(_ on: Bool) async throws {
        let value = on ? "on" : "off"
        try await connection.query(PostgresQuery(unsafeSQL: "ALTER SYSTEM SET fsync = \(value)"), logger: Self.logger)
        try await connection.query(PostgresQuery(unsafeSQL: "ALTER SYSTEM SET full_page_writes = \(value)"), logger: Self.logger)
        try await connection.query("SELECT pg_reload_conf()", logger: Self.logger)
        // The reload reaches each backend when it next reads its configuration: asked again
        // until this one shows it.
        let deadline = ContinuousClock.now + .seconds(10)
        while try await text("SHOW fsync") != value {
            guard ContinuousClock.now < deadline else { throw BenchmarkFailure("the server did not take fsync = \(value)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func text(_ sql: String) async throws -> String {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).collect()
        return try rows.first?.decode(String.self) ?? ""
    }

    /// The group `sync setup` made last.
    func newestGroup() async throws -> Data {
        let rows = try await connection.query(
            "SELECT group_id FROM keychain_sync_groups ORDER BY created_at DESC LIMIT 1", logger: Self.logger).collect()
        guard let group = try rows.first?.decode(Data.self) else { throw BenchmarkFailure("the server holds no group") }
        return group
    }

    /// Makes a group for an anchor to write into (records refer to their group).
    func makeGroup(_ group: Data) async throws {
        try await connection.query(
            "INSERT INTO keychain_sync_groups (group_id, genesis) VALUES (\(group), \(Data([0])))", logger: Self.logger)
    }

    func recordCount(_ group: Data) async throws -> Int {
        let rows = try await connection.query(
            "SELECT count(*)::bigint FROM keychain_sync_records WHERE group_id = \(group)", logger: Self.logger).collect()
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }

    func rows(_ group: Data) async throws -> [StoredRow] {
        try await connection.query(
            "SELECT item_id, version, tombstone, record FROM keychain_sync_records WHERE group_id = \(group) ORDER BY sequence",
            logger: Self.logger
        ).collect().map { row in
            let (itemID, version, isTombstone, record) = try row.decode((Data, Data, Bool, Data).self)
            return StoredRow(itemID: itemID, version: version, isTombstone: isTombstone, record: record)
        }
    }

    /// pg_total_relation_size of the records table.
    func recordsTableBytes() async throws -> Double {
        Double(try await text("SELECT pg_total_relation_size('keychain_sync_records')::text")) ?? .nan
    }
}
