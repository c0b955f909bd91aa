import Foundation
import KeychainCore
import KeychainSync
import Logging
import Testing
import TestSupport

/// The check that the server still holds every record (a restored backup, dropped rows) reads
/// every item a member knows and makes the server digest all of the group's records: the agent
/// makes it once per interval, not at each pass a single change wakes, so that a change reaches
/// the other members in the time of that change alone. A loss is still healed within one
/// interval, and a server whose record numbers went back below a member's position is checked
/// at the next pass, whatever woke it. Real PostgreSQL and keychainctl.
@Suite("Sync checks the server's completeness once per interval", .serialized)
struct SyncCompletenessCheckTests {
    static let logger = Logger(label: "keychain-sync-completeness-tests")

    /// Requirement "a pass woken by a change does not digest every record": a pass without the
    /// check neither sends the summary query nor notices a dropped row (below the member's
    /// position, so no rollback shows); the next pass with the check sends it again. A row
    /// dropped at the top of the server's numbers (a rollback the pull can see) is checked
    /// and healed even by a pass without the check.
    @Test func passWithoutCheckSkipsTheSummaryButNotARollback() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "first", account: "x", password: "first-secret")
        try a.store(service: "second", account: "x", password: "second-secret")
        for member in [a, b] { #expect(try member.run("sync", "run", "--once").status == 0) }
        #expect(try recordCount(server) == 2)

        let agent = SyncAgent(files: a.files, store: try KeychainStore.shared(a.files, create: false), logger: Self.logger)
        try await SyncServerFixture.withServer(server.tcpAddress()) { connection in
            // Below a's position: only the full check can see it.
            #expect(try deleteRecords(server, "sequence = (SELECT min(sequence) FROM keychain_sync_records)") == 1)
            let unchecked = try await agent.pass(server: connection, checkCompleteness: false)
            #expect(!unchecked.checkedCompleteness)
            #expect(!unchecked.healing.foundSomething && unchecked.healing.resent == 0)
            #expect(try recordCount(server) == 1)

            let checked = try await agent.pass(server: connection)
            #expect(checked.checkedCompleteness)
            #expect(checked.healing.resent == 1)
            #expect(try recordCount(server) == 2)

            // The top of the server's numbers: its highest sequence falls below a's cursor.
            #expect(try deleteRecords(server, "sequence = (SELECT max(sequence) FROM keychain_sync_records)") == 1)
            let rolledBack = try await agent.pass(server: connection, checkCompleteness: false)
            #expect(rolledBack.checkedCompleteness)
            #expect(rolledBack.healing.rolledBack && rolledBack.healing.resent == 1)
            #expect(try recordCount(server) == 2)
        }
        #expect(try b.run("sync", "run", "--once").status == 0)
        #expect(try b.password(service: "first", account: "x") == "first-secret")
        #expect(try b.password(service: "second", account: "x") == "second-secret")
    }

    /// Requirement "a loss is healed within one interval": with both agents running (1 s
    /// interval), a row dropped below every member's position, which no pull can see, is sent
    /// again by the check the interval makes, and a member that joins afterwards gets it.
    @Test func runningAgentsHealADroppedRowWithinAnInterval() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, late) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("late"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.startAgent()
        try b.startAgent()
        defer {
            a.stopAgent()
            b.stopAgent()
        }
        try a.store(service: "dropped", account: "x", password: "dropped-secret")
        try b.store(service: "kept", account: "x", password: "kept-secret")
        try eventually(60, "both members hold both items") {
            try a.password(service: "kept", account: "x") == "kept-secret"
                && b.password(service: "dropped", account: "x") == "dropped-secret"
        }
        // The lower of the two: below both agents' positions, with the highest number unchanged.
        #expect(try deleteRecords(server, "sequence = (SELECT min(sequence) FROM keychain_sync_records)") == 1)
        try eventually(60, "the dropped record is on the server again") { try recordCount(server) == 2 }
        let logs = a.agentLogs + b.agentLogs
        #expect(logs.contains("had lost records"), "no agent reported the loss:\n\(logs)")

        try admit(late, server: server.tcpAddress(), approver: a)
        #expect(try late.run("sync", "run", "--once").status == 0)
        #expect(try late.password(service: "dropped", account: "x") == "dropped-secret")
        #expect(try late.password(service: "kept", account: "x") == "kept-secret")
    }

    private func recordCount(_ server: PostgresTestServer) throws -> Int {
        let text = try server.psql("SELECT count(*) FROM keychain_sync_records").trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = Int(text) else { throw SyncTestFailure("no count: \(text)") }
        return value
    }

    /// Deletes the records matching `condition` as whoever holds the database would; how many.
    private func deleteRecords(_ server: PostgresTestServer, _ condition: String) throws -> Int {
        try server.psql("DELETE FROM keychain_sync_records WHERE \(condition) RETURNING 1")
            .split(separator: "\n").count
    }
}
