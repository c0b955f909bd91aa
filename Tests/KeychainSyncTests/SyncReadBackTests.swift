import Foundation
import KeychainCore
import KeychainSync
import Logging
import Testing
import TestSupport

/// A member reads its own records back from the server after it sent them, and keeps the
/// digest of the server's copy of each, for a removal to vouch for.
@Suite("Sync reading back its own records", .serialized)
struct SyncReadBackTests {
    static let logger = Logger(label: "keychain-sync-read-back-tests")

    /// Requirement "a removal vouches only for records that are what their author wrote": the
    /// server's copy of one of a member's records is altered after the member sent it. Reading
    /// them back, the member keeps the digest of the untouched one, which is byte for byte what
    /// it sealed, and rejects the altered one (logged), keeping no digest for it.
    @Test func onlyTheRecordsSentAsTheyWereAreVouchedFor() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (writer, other) = (try SyncMember("writer"), try SyncMember("other"))
        try formGroup(server: server.tcpAddress(), founder: writer, others: [other])
        try writer.store(service: "kept", account: "a", password: "kept-secret")
        try writer.store(service: "altered", account: "a", password: "altered-secret")

        // Sent, not read back yet.
        let store = try KeychainStore.shared(writer.files, create: false)
        let session = try SyncSession.load(files: writer.files, store: store)
        let connection = try await SyncServer.connect(SyncServerAddress(parsing: server.tcpAddress()), logger: Self.logger,
                                                      operationTimeout: SyncServerFixture.operationTimeout)
        let sent: Int
        do {
            sent = try await session.push(server: connection, logger: Self.logger)
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
        #expect(sent == 2)
        #expect(try vouchedCount(of: writer) == 0)

        // The rows in the order sent: kept, then altered.
        let rows = try server.psql("SELECT sequence FROM keychain_sync_records ORDER BY sequence").split(separator: "\n").map(String.init)
        try #require(rows.count == 2)
        try server.psql("UPDATE keychain_sync_records SET record = set_byte(record, length(record) / 2, get_byte(record, length(record) / 2) # 1) WHERE sequence = \(rows[1])")

        let pass = try writer.run("sync", "run", "--once")
        #expect(pass.status == 0, "\(pass.errors)")
        #expect(pass.errors.contains("rejected a record"))
        #expect(try vouchedCount(of: writer) == 1)
    }

    /// How many items `member`'s state keeps the server's digest of (sqlite3, another
    /// implementation than the agent's).
    private func vouchedCount(of member: SyncMember) throws -> Int {
        let state = member.keychainFolder.appendingPathComponent("login.keychain-sync").path
        let result = try SpawnedProcess.runToEnd("/usr/bin/sqlite3", [state, "SELECT count(*) FROM known WHERE record_digest IS NOT NULL"],
                                                 environment: member.environment, outputIn: member.home.appendingPathComponent("io"))
        guard result.status == 0, let count = Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SyncTestFailure("sqlite3: \(result.errors)")
        }
        return count
    }
}
