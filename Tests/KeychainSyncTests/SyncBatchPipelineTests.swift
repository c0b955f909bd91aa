import Foundation
import KeychainCore
import KeychainSync
import Logging
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A push or a pull of more changes than one batch holds prepares the next batch while the one
/// before is written: the next push batch is read and sealed while the one before is sent,
/// the next pull batch read and checked while the one before is applied. Batches of two here,
/// so that a handful of items crosses several.
@Suite("Sync across several batches", .serialized)
struct SyncBatchPipelineTests {
    static let logger = Logger(label: "keychain-sync-batch-tests")

    /// Requirement "each change is sent once, as its row is when it is read": an item pushed
    /// before is changed and then deleted, beside new items, and the push sends them in
    /// batches of two. The deletion goes in the first batch that reads the item's row; the
    /// next batch, decided while that one is sent, knows it went (the state as it will be)
    /// and sends it no second time. The other member ends with what the first holds.
    @Test func aPushOfSeveralBatchesSendsEachChangeOnce() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "batches", account: "gone", password: "first")
        try syncOnce(a, b)
        #expect(try b.password(service: "batches", account: "gone") == "first")

        // The log, in order: x0 added; "gone" changed, then deleted; x1 and x2 added.
        try a.store(service: "batches", account: "x0", password: "secret-0")
        try a.store(service: "batches", account: "gone", password: "second", update: true)
        #expect(try a.delete(service: "batches", account: "gone"))
        try a.store(service: "batches", account: "x1", password: "secret-1")
        try a.store(service: "batches", account: "x2", password: "secret-2")

        let sent = try await withSession(of: a, server: server) { session, connection in
            try await session.push(server: connection, logger: Self.logger, batch: 2)
        }
        // x0 and the deletion of "gone"; then x1 (the deletion is not sent again); then x2.
        #expect(sent == 4)
        #expect(try a.pendingLocalChanges() == 0)
        try syncOnce(b)
        #expect(try b.password(service: "batches", account: "gone") == nil)
        for index in 0..<3 {
            #expect(try b.password(service: "batches", account: "x\(index)") == "secret-\(index)")
        }
    }

    /// Requirement "a pull stops at a local change to send first, and applies nothing after
    /// it": b changed an item locally that a also wrote; b pulls a's items in batches of two.
    /// The batch holding that item is applied up to it; the batch after it, read and checked
    /// while that one was applied, is not applied. The next pass sends b's change and pulls
    /// the rest: both end with every item, b's change winning (it is the later).
    @Test func aPullOfSeveralBatchesStopsAtALocalChangeAndAppliesNothingAfterIt() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        for index in 0..<7 { try a.store(service: "batches", account: "item-\(index)", password: "from-a-\(index)") }
        try syncOnce(a)
        // Versions order by the clock's milliseconds: b's change is made in a later one.
        usleep(20_000)
        try b.store(service: "batches", account: "item-3", password: "from-b")

        let report = try await withSession(of: b, server: server) { session, connection in
            try await session.pull(server: connection, logger: Self.logger, batch: 2)
        }
        #expect(report.applied == 3 && report.rejected == 0)
        #expect(report.stopped && report.localChangeFirst)
        for index in 0..<3 { #expect(try b.password(service: "batches", account: "item-\(index)") == "from-a-\(index)") }
        #expect(try b.password(service: "batches", account: "item-3") == "from-b")
        for index in 4..<7 { #expect(try b.password(service: "batches", account: "item-\(index)") == nil) }

        try syncOnce(b, a)
        for member in [a, b] {
            for index in 0..<7 {
                let expected = index == 3 ? "from-b" : "from-a-\(index)"
                #expect(try member.password(service: "batches", account: "item-\(index)") == expected, "on \(member.name)")
            }
        }
    }

    /// A record that fails its checks is rejected and logged, the others applied in order: b
    /// pulls 24 records in one batch. One record's signature is spoiled on the server, and b
    /// changed a later item locally. The pull rejects and logs that record alone, applies every record before
    /// the local change, and nothing after it. The next pass sends b's change and pulls the
    /// rest; the spoiled record is not met again.
    @Test func aBadSignatureInABatchIsRejectedAloneAndTheRestAppliedInOrder() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        let count = 24
        let (spoiled, changed) = (5, count - 7)
        for index in 0..<count { try a.store(service: "signed", account: "item-\(index)", password: "from-a-\(index)") }
        try syncOnce(a)
        let sequences = try server.psql("SELECT sequence FROM keychain_sync_records ORDER BY sequence")
            .split(separator: "\n").map(String.init)
        try #require(sequences.count == count)
        // The last byte of the record is the signature's.
        try server.psql("""
            UPDATE keychain_sync_records SET record = set_byte(record, length(record) - 1, get_byte(record, length(record) - 1) # 1)
            WHERE sequence = \(sequences[spoiled])
            """)
        // Versions order by the clock's milliseconds: b's change is made in a later one.
        usleep(20_000)
        try b.store(service: "signed", account: "item-\(changed)", password: "from-b")

        let warnings = LoggedWarnings()
        let report = try await withSession(of: b, server: server) { session, connection in
            try await session.pull(server: connection, logger: warnings.logger, batch: SyncSession.pullBatch)
        }
        #expect(report.applied == changed - 1 && report.rejected == 1)
        #expect(report.stopped && report.localChangeFirst)
        let logged = warnings.entries.withLock { $0 }
        #expect(logged.count == 1)
        #expect(logged.first?.message == "rejected a record from the sync server")
        #expect(logged.first?.metadata["sequence"] == "\(sequences[spoiled])")
        #expect(logged.first?.metadata["reason"] == "record with a bad signature")
        for index in 0..<count {
            let expected = index == changed ? "from-b" : index < changed && index != spoiled ? "from-a-\(index)" : nil
            #expect(try b.password(service: "signed", account: "item-\(index)") == expected, "item-\(index)")
        }

        try syncOnce(b)
        for index in 0..<count {
            let expected = index == changed ? "from-b" : index != spoiled ? "from-a-\(index)" : nil
            #expect(try b.password(service: "signed", account: "item-\(index)") == expected, "item-\(index)")
        }
        let again = try await withSession(of: b, server: server) { session, connection in
            try await session.pull(server: connection, logger: warnings.logger, batch: SyncSession.pullBatch)
        }
        #expect(again.applied == 0 && again.rejected == 0 && !again.stopped)
        #expect(warnings.entries.withLock { $0.count } == 1)
    }

    /// Runs `body` with `member`'s sync session, in this process, and a connection to `server`.
    private func withSession<T>(of member: SyncMember, server: PostgresTestServer,
                                _ body: (inout SyncSession, SyncServer) async throws -> T) async throws -> T {
        let store = try KeychainStore.shared(member.files, create: false)
        var session = try SyncSession.load(files: member.files, store: store)
        let connection = try await SyncServer.connect(SyncServerAddress(parsing: server.tcpAddress()), logger: Self.logger,
                                                      operationTimeout: SyncServerFixture.operationTimeout)
        do {
            let result = try await body(&session, connection)
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }
}

/// The warnings a logger was given, with their metadata, to check what a pull logs.
private final class LoggedWarnings: Sendable {
    let entries = Mutex<[(message: String, metadata: Logger.Metadata)]>([])

    var logger: Logger {
        Logger(label: "keychain-sync-batch-tests") { _ in Handler(warnings: self) }
    }

    private struct Handler: LogHandler {
        let warnings: LoggedWarnings
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .warning

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            guard event.level >= .warning else { return }
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            warnings.entries.withLock { $0.append(("\(event.message)", all)) }
        }
    }
}
