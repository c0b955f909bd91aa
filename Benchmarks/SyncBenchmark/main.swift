// Keychain sync between two members on loopback (Scripts/benchmark-sync runs it), against
// the database's own speed on the same server and table: a PostgreSQL of its own
// (PostgresTestServer), two members as separate folders, the group formed with
// `keychainctl sync setup / join / approve`, both agents `keychainctl sync run`.
//
//   keychain-sync-benchmark --keychainctl PATH [--writes K] [--rounds R] [sizes...]
//
// For each durability (fsync off, then on), each size N (10,000 unless given) and each of R
// rounds (5 unless given), on a fresh server and members:
//   - push: N items added on A while its agent is stopped, then items/s from the agent's start
//     until the server holds them all (server bytes per item: the records table's growth / N);
//   - initial sync: B joins, its agent starts on an empty keychain, items/s until B's
//     keychain holds all N (a sample of their secrets checked against what A wrote);
//   - the anchors: the rows A's agent stored, written again into the same table (under
//     groups of their own) by psql, in batches of the agent's size, one transaction each:
//     INSERT + DELETE per record one after another (what the agent did before), the same
//     statements one message per batch, one multi-row INSERT per batch, one COPY per batch.
//     Each anchor is timed by the server's clock from its script's first statement to its last.
// The order alternates: odd rounds measure ours first, even rounds the anchors first. Each
// round's ratio is ours / COPY in that round; the table prints min / median / max over the
// rounds. In the first round of each durability, both agents running: K writes on A (200
// unless given), each timed from the write's return until B's keychain holds it, p50 and p99.
// The last line is the verdict.
import Foundation
import KeychainCore
import KeychainSync
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What one round measured, in items/s.
struct RoundFigures {
    var push = 0.0
    /// From the first record stored on: the agent's start (process, keychain unlock,
    /// connection, membership) left out.
    var pushAfterStart = 0.0
    var pull = 0.0
    var anchors: [Anchor: Double] = [:]
    var serverBytesPerItem = 0.0
    var pusherKiB = 0
    var pullerKiB = 0
}

let usage = "usage: keychain-sync-benchmark --keychainctl PATH [--writes K] [--rounds R] [sizes...] (each number at least 1)"

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(status)
}

func progress(_ message: String) {
    FileHandle.standardError.write(Data("sync benchmark: \(message)\n".utf8))
}

/// A synchronizable generic password of the benchmark.
@Sendable func benchmarkItem(account: String, secret: String) -> NewItem {
    NewItem(itemClass: .genericPassword,
            attributes: ["acct": .string(account), "svce": .string("sync-benchmark"),
                         "pdmn": .string(Accessibility.afterFirstUnlock.rawValue)],
            isSynchronizable: true, data: Data(secret.utf8))
}

/// The secret of `account` in `store`, nil when it has none.
func secret(of account: String, in store: KeychainStore) throws -> String? {
    let query = ItemQuery(itemClass: .genericPassword,
                          attributes: ["acct": .string(account), "svce": .string("sync-benchmark")],
                          synchronizable: .any, returning: .data)
    do throws(KeychainError) {
        return try store.find(query, by: BenchmarkMember.caller).first?.data.map { String(decoding: $0, as: UTF8.self) }
    } catch {
        guard error == .itemNotFound else { throw error }
        return nil
    }
}

/// Waits until `condition` holds, checking every `interval`, for at most `seconds`.
func waitUntil(_ seconds: Double, _ what: String, interval: UInt32 = 50_000, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while try !condition() {
        guard Date() < deadline else { throw BenchmarkFailure("not within \(Int(seconds)) s: \(what)") }
        usleep(interval)
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Adds `count` items on `store` from 8 threads, whose writes share commits (the core's
/// group commit), as the programs of a busy machine would.
func fill(_ store: KeychainStore, count: Int, token: String) throws {
    let failure = LockedFailure()
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
        for index in stride(from: worker, to: count, by: 8) where failure.value == nil {
            do {
                _ = try store.add(benchmarkItem(account: "initial-\(index)", secret: "secret \(index) \(token)"),
                              by: BenchmarkMember.caller)
            } catch {
                failure.set("adding item \(index): \(error)")
            }
        }
    }
    if let message = failure.value { throw BenchmarkFailure(message) }
}

final class LockedFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var message: String?
    var value: String? { lock.withLock { message } }
    func set(_ text: String) { lock.withLock { if message == nil { message = text } } }
}

/// `sync join` of `group` on `joiner`, approved on `approver` with the code it prints.
func join(_ joiner: BenchmarkMember, approvedBy approver: BenchmarkMember, server: String, group: Data) throws {
    let log = joiner.home.appendingPathComponent("join.log")
    // The group named: the anchors' groups share the server.
    let joining = try joiner.start(["sync", "join", "--server", server, "--group", hex(group), "--name", joiner.name,
                                    "--timeout", "120"], log: log)
    defer { joining.kill(SIGTERM); _ = joining.wait() }
    var code: String?
    try waitUntil(60, "sync join prints a code") {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        if joining.poll() != nil && !text.contains("sync approve ") { throw BenchmarkFailure("sync join ended: \(text)") }
        code = text.split(separator: "\n").first { $0.contains("sync approve ") }
            .flatMap { $0.split(separator: " ").last.map(String.init) }
        return code != nil
    }
    try approver.run("sync", "approve", code ?? "")
    let ended = joining.wait()
    guard ended.status == 0 else {
        throw BenchmarkFailure("sync join: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }
}

/// The propagation latencies, in ms, of `count` writes on `writer` until `reader` holds each.
func propagation(from writer: BenchmarkMember, to reader: BenchmarkMember, count: Int, token: String) throws -> [Double] {
    let source = try writer.store()
    let destination = try reader.store()
    let watch = try FolderWatch(reader.keychainFolder)
    var latencies: [Double] = []
    for index in 0..<count {
        let account = "propagation-\(index)"
        let expected = "propagated \(index) \(token)"
        _ = try source.add(benchmarkItem(account: account, secret: expected), by: BenchmarkMember.caller)
        let written = ContinuousClock.now
        while try secret(of: account, in: destination) != expected {
            guard ContinuousClock.now - written < .seconds(60) else {
                try reader.checkAgentRuns()
                throw BenchmarkFailure("write \(index) did not reach \(reader.name) within 60 s; \(writer.agentLogTail); \(reader.agentLogTail)")
            }
            watch.wait(milliseconds: 100)
        }
        latencies.append(seconds(ContinuousClock.now - written) * 1000)
    }
    return latencies
}

/// A fresh group id for one anchor's rows, apart from the agents' group.
func anchorGroup() -> Data {
    Data("anchor-".utf8) + Data((0..<9).map { _ in UInt8.random(in: 0...255) })
}

/// Writes `rows` with each anchor into the round's server; items/s of each.
func measureAnchors(_ rows: [StoredRow], database: BenchmarkDatabase, server: PostgresTestServer,
                    folder: URL) async throws -> [Anchor: Double] {
    let psql = try PsqlRunner(server: server, folder: folder)
    var figures: [Anchor: Double] = [:]
    for anchor in Anchor.allCases {
        let group = anchorGroup()
        try await database.makeGroup(group)
        let script = anchor.script(rows, group: group, batch: SyncSession.pushBatch)
        let elapsed = try psql.run(script)
        guard try await database.recordCount(group) == rows.count else {
            throw BenchmarkFailure("\(anchor.label) did not store the \(rows.count) rows")
        }
        figures[anchor] = Double(rows.count) / elapsed
    }
    return figures
}

/// One round at one size on a fresh server and members: ours and the anchors (in the order
/// `anchorsFirst` says), and the propagation latencies too when `writes` > 0. `rows` are the
/// rows to write with the anchors when they go first (those of an earlier round); the rows
/// this round's push stored come back.
func measureRound(size: Int, fsync: Bool, anchorsFirst: Bool, rows: [StoredRow], writes: Int,
                  keychainctl: String) async throws -> (RoundFigures, [StoredRow], [Double]) {
    let server = try PostgresTestServer()
    defer { server.remove() }
    let database = try await BenchmarkDatabase(server)
    do {
        let measured = try await measureRound(size: size, fsync: fsync, anchorsFirst: anchorsFirst, rows: rows, writes: writes,
                                              keychainctl: keychainctl, server: server, database: database)
        await database.close()
        return measured
    } catch {
        await database.close()
        throw error
    }
}

func measureRound(size: Int, fsync: Bool, anchorsFirst: Bool, rows: [StoredRow], writes: Int, keychainctl: String,
                  server: PostgresTestServer, database: BenchmarkDatabase) async throws -> (RoundFigures, [StoredRow], [Double]) {
    let address = server.tcpAddress()
    let root = TestScratch.folder("sync-benchmark-\(size)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    let token = (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    let a = try BenchmarkMember("a", in: root, keychainctl: keychainctl)
    let b = try BenchmarkMember("b", in: root, keychainctl: keychainctl)
    defer {
        a.stopAgent()
        b.stopAgent()
        try? FileManager.default.removeItem(at: root)
    }
    try await database.setFsync(fsync)
    var figures = RoundFigures()
    if anchorsFirst {
        // The tables as sync setup makes them, for the anchors to write into first.
        let schema = try await SyncServer.connect(try SyncServerAddress(parsing: address), logger: BenchmarkDatabase.logger)
        do {
            try await schema.migrate()
            await schema.close()
        } catch {
            await schema.close()
            throw error
        }
        progress("\(size): the anchors")
        figures.anchors = try await measureAnchors(rows, database: database, server: server, folder: root)
    }
    try a.run("sync", "setup", "--server", address, "--name", "a")
    let group = try await database.newestGroup()

    progress("\(size): adding the items on a")
    try fill(try a.store(), count: size, token: token)

    progress("\(size): a's agent pushes them")
    let bytesBefore = try await database.recordsTableBytes()
    let pushStart = ContinuousClock.now
    try a.startAgent()
    let pushDeadline = pushStart + .seconds(Int64(size / 20 + 120))
    var firstStored: ContinuousClock.Instant?
    while case let count = try await database.recordCount(group), count < size {
        if count > 0, firstStored == nil { firstStored = .now }
        try a.checkAgentRuns()
        guard ContinuousClock.now < pushDeadline else { throw BenchmarkFailure("a's agent did not push \(size) records; \(a.agentLogTail)") }
        try await Task.sleep(for: .milliseconds(5))
    }
    let pushEnd = ContinuousClock.now
    figures.push = Double(size) / seconds(pushEnd - pushStart)
    figures.pushAfterStart = Double(size) / seconds(pushEnd - (firstStored ?? pushStart))
    figures.serverBytesPerItem = (try await database.recordsTableBytes() - bytesBefore) / Double(size)
    let pushed = try await database.rows(group)

    progress("\(size): b joins, and its agent syncs them")
    try join(b, approvedBy: a, server: address, group: group)
    let baseline = try b.rowCount()
    let pullStart = ContinuousClock.now
    try b.startAgent()
    try waitUntil(Double(size) / 20 + 120, "b's agent holds \(size) items", interval: 5_000) {
        try b.checkAgentRuns()
        return try b.rowCount() - baseline >= size
    }
    figures.pull = Double(size) / seconds(ContinuousClock.now - pullStart)
    figures.pusherKiB = try a.agentResidentKiB()
    figures.pullerKiB = try b.agentResidentKiB()
    // What arrived is what was written: a sample of the secrets, read on b.
    let bStore = try b.store()
    for index in (0..<20).map({ _ in Int.random(in: 0..<size) }) {
        guard try secret(of: "initial-\(index)", in: bStore) == "secret \(index) \(token)" else {
            throw BenchmarkFailure("item \(index) on b does not hold the secret written on a")
        }
    }
    var latencies: [Double] = []
    if writes > 0 {
        progress("\(size): \(writes) writes on a, each until b holds it")
        latencies = try propagation(from: a, to: b, count: writes, token: token)
    }
    a.stopAgent()
    b.stopAgent()
    if !anchorsFirst {
        progress("\(size): the anchors")
        figures.anchors = try await measureAnchors(pushed, database: database, server: server, folder: root)
    }
    return (figures, pushed, latencies)
}

/// The value at `fraction` of the sorted `values` (nearest rank).
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}

/// What one durability and size measured over its rounds.
struct SeriesFigures {
    var fsync: Bool
    var size: Int
    var rounds: [RoundFigures] = []
    var latencies: [Double] = []
}

func run() async -> Int32 {
    var keychainctl: String?
    var writes = 200
    var rounds = 5
    var sizes: [Int] = []
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        switch argument {
        case "--keychainctl": keychainctl = arguments.popFirst()
        case "--writes":
            guard let value = arguments.popFirst().flatMap(Int.init), value >= 1 else { fail(usage, status: 2) }
            writes = value
        case "--rounds":
            guard let value = arguments.popFirst().flatMap(Int.init), value >= 1 else { fail(usage, status: 2) }
            rounds = value
        default:
            guard let value = Int(argument), value >= 1 else { fail(usage, status: 2) }
            sizes.append(value)
        }
    }
    guard let keychainctl, access(keychainctl, X_OK) == 0 else { fail(usage, status: 2) }
    if sizes.isEmpty { sizes = [10_000] }
    sizes = Array(Set(sizes)).sorted()

    var series: [SeriesFigures] = []
    var version = ""
    do {
        for fsync in [false, true] {
            for (sizeIndex, size) in sizes.enumerated() {
                var figures = SeriesFigures(fsync: fsync, size: size)
                var rows: [StoredRow] = []
                for round in 0..<rounds {
                    progress("fsync \(fsync ? "on" : "off"), \(size) items, round \(round + 1) of \(rounds)")
                    let (measured, pushed, latencies) = try await measureRound(
                        size: size, fsync: fsync, anchorsFirst: round % 2 == 1, rows: rows,
                        writes: round == 0 && sizeIndex == 0 ? writes : 0, keychainctl: keychainctl)
                    figures.rounds.append(measured)
                    if round == 0 { figures.latencies = latencies }
                    rows = pushed
                }
                series.append(figures)
            }
        }
        let server = try PostgresTestServer()
        version = try server.psql("SHOW server_version").trimmingCharacters(in: .whitespacesAndNewlines)
        server.remove()
    } catch {
        print("verdict: FAIL the benchmark could not run: \(error)")
        return 1
    }
    return report(series, rounds: rounds, version: version) ? 0 : 1
}

/// min / median / max of `values`.
func spread(_ values: [Double], _ format: String) -> String {
    let sorted = values.sorted()
    guard let first = sorted.first, let last = sorted.last else { return "-" }
    return String(format: "\(format) / \(format) / \(format)", first, percentile(sorted, 0.5), last)
}

/// Prints one table per durability and size, the targets, and the verdict; whether every
/// target was met.
func report(_ series: [SeriesFigures], rounds: Int, version: String) -> Bool {
    print("Keychain sync on loopback against the database's own speed, PostgreSQL \(version), \(rounds) rounds each")
    print("push: A's agent sends N items added while it was stopped, from its start until the server holds all N;")
    print("initial sync: B joins, its agent starts on an empty keychain, until B's keychain holds all N. The anchors write")
    print("the same rows into the same table with psql, \(SyncSession.pushBatch) rows per transaction (the agent's batch).")
    print("Ours and the anchors alternate in order round by round; ratios are per round, ours / COPY in the same round.")
    var missed: [String] = []
    var lines: [(String, String, Bool)] = []
    for figures in series {
        let durability = "fsync=\(figures.fsync ? "on" : "off")"
        let copy = figures.rounds.map { $0.anchors[.copy] ?? .nan }
        func ratios(_ values: [Double]) -> [Double] { zip(values, copy).map { $0 / $1 } }
        print("")
        print("\(durability), \(figures.size) items")
        print("what                                                     | items/s min / median / max | / COPY min / median / max")
        print("---------------------------------------------------------+----------------------------+--------------------------")
        func row(_ name: String, _ values: [Double]) {
            print(name.padding(toLength: 56, withPad: " ", startingAt: 0) + " | "
                  + spread(values, "%.0f").padding(toLength: 26, withPad: " ", startingAt: 0) + " | " + spread(ratios(values), "%.2f"))
        }
        let push = figures.rounds.map(\.push)
        let pull = figures.rounds.map(\.pull)
        row("push (A's agent, N items added while it was stopped)", push)
        row("  the same, from the first record stored (information)", figures.rounds.map(\.pushAfterStart))
        row("initial sync (B joins and pulls N items)", pull)
        for anchor in Anchor.allCases { row(anchor.label, figures.rounds.map { $0.anchors[anchor] ?? .nan }) }
        let bytes = figures.rounds.map(\.serverBytesPerItem)
        print(String(format: "server bytes per item (median): %.0f; agent VmRSS MiB, A / B (median): %.1f / %.1f",
                     percentile(bytes, 0.5), percentile(figures.rounds.map { Double($0.pusherKiB) / 1024 }, 0.5),
                     percentile(figures.rounds.map { Double($0.pullerKiB) / 1024 }, 0.5)))
        let p50 = percentile(figures.latencies, 0.5)
        if !figures.latencies.isEmpty {
            print("propagation (round 1): \(figures.latencies.count) writes on A, each from its return until B's keychain holds it:"
                  + String(format: " p50 %.1f ms, p99 %.1f ms, max %.1f ms", p50, percentile(figures.latencies, 0.99),
                           figures.latencies.max() ?? .nan))
            lines.append(("propagation p50 < 100 ms, \(durability)", String(format: "%.1f ms", p50), p50 < 100))
        }
        for (name, values) in [("push", push), ("initial sync", pull)] {
            let ratio = percentile(ratios(values), 0.5)
            let rate = percentile(values, 0.5)
            lines.append(("\(name) >= 0.5x COPY, \(durability), \(figures.size)", String(format: "%.2fx (median)", ratio), ratio >= 0.5))
            lines.append(("\(name) >= 10,000 items/s, \(durability), \(figures.size)", String(format: "%.0f items/s (median)", rate),
                          rate >= 10_000))
        }
    }
    print("")
    // As wide as the longest name, which a larger size would otherwise cut short.
    let width = lines.map { $0.0.count }.max() ?? 0
    print("target".padding(toLength: width, withPad: " ", startingAt: 0) + " | figure")
    print(String(repeating: "-", count: width + 1) + "+-------------------------------")
    for (name, figure, met) in lines {
        print(name.padding(toLength: width, withPad: " ", startingAt: 0) + " | " + figure + (met ? " met" : " MISSED"))
        if !met { missed.append(name.replacingOccurrences(of: " ", with: "")) }
    }
    if missed.isEmpty {
        print("verdict: PASS every target met, fsync off and on")
        return true
    }
    print("verdict: FAIL \(missed.count) of \(lines.count) targets missed: \(missed.joined(separator: " "))")
    return false
}

exit(await run())
