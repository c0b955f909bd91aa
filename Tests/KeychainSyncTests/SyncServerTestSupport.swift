import Foundation
import Logging
import Testing
import TestSupport
@testable import KeychainSync

/// What the sync server suites share: a real PostgreSQL with the schema, connections to it,
/// and ways to wait for what happens in the background with a bound instead of a guess.
enum SyncServerFixture {
    static let logger = Logger(label: "keychain-sync-tests")

    /// How long a call of an in-process connection may wait. The test process runs its async
    /// tests on as many threads as the machine has cores, beside tests that block them waiting
    /// for child processes; on two loaded cores a reply can wait minutes for a thread, and the
    /// agent's 30 s limit (meant for a server that stopped answering) then failed tests whose
    /// server had answered. The tests of that limit set their own.
    static let operationTimeout: Duration = .seconds(600)

    /// Connects to `address` and closes the connection after `body`, whatever happens.
    static func withServer<T: Sendable>(
        _ address: String, _ body: (SyncServer) async throws -> T
    ) async throws -> T {
        let server = try await SyncServer.connect(SyncServerAddress(parsing: address), logger: logger,
                                                  operationTimeout: operationTimeout)
        do {
            let result = try await body(server)
            await server.close()
            return result
        } catch {
            await server.close()
            throw error
        }
    }

    /// A fresh PostgreSQL, migrated, with one group: `body` gets the test server, a
    /// connection and the group's id.
    static func withGroup<T: Sendable>(
        _ body: (PostgresTestServer, SyncServer, Data) async throws -> T
    ) async throws -> T {
        try await PostgresTestServer.with { postgres in
            try await withServer(postgres.tcpAddress()) { server in
                try await server.migrate()
                let group = randomBytes(16)
                try await server.createGroup(group, genesis: Data("genesis roster".utf8))
                return try await body(postgres, server, group)
            }
        }
    }

    static func randomBytes(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: 0...255) })
    }

    /// A 32-byte version whose byte order is the order of `time` (big-endian first), as
    /// RecordVersion encodes it.
    static func version(_ time: UInt64, counter: UInt64 = 0) -> Data {
        var bytes = Data()
        withUnsafeBytes(of: time.bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(Data(repeating: 0xAB, count: 16))
        withUnsafeBytes(of: counter.bigEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }
}

/// Counts what an AsyncStream yields, from a task of its own, so that a test can wait for
/// the count to reach a number within a bound.
actor YieldCounter {
    private(set) var count = 0
    private var task: Task<Void, Never>?

    init() {}

    func consume(_ stream: AsyncStream<Void>) {
        task = Task {
            for await _ in stream { self.increment() }
        }
    }

    private func increment() { count += 1 }

    /// Counts one event of the test's own (a writer finishing).
    func add() { count += 1 }

    func stop() { task?.cancel() }

    /// Whether the count reached `target` within `bound` of polls, one every 20 ms.
    ///
    /// The bound is counted in polls, not read from the clock: when every thread of the
    /// test process is busy (a full parallel run), the poll and the task that raises the
    /// count both run late, and a clock deadline would pass while neither could run.
    func reaches(_ target: Int, within bound: Duration = .seconds(20)) async -> Bool {
        for _ in 0..<Int(bound / .milliseconds(20)) {
            if count >= target { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return count >= target
    }
}

/// Runs `body`, or fails with ``TimedOut`` when it takes longer than `bound`: a hang becomes
/// a failure, never a stuck suite.
func within<T: Sendable>(_ bound: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: bound)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TimedOut() }
        return value
    }
}

struct TimedOut: Error {}
