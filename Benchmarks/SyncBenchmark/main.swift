// Keychain sync between two members on loopback (Scripts/benchmark-sync runs it): a
// PostgreSQL of its own (PostgresTestServer), two members as separate folders, the group
// formed with `keychainctl sync setup / join / approve`, both agents `keychainctl sync run`.
//
//   keychain-sync-benchmark --keychainctl PATH [--writes K] [sizes...]
//
// For each size N (10,000 and 100,000 unless given), on a fresh server and members: N items
// added on A (A's agent stopped), then A's agent pushes them all (push items/s, server bytes
// per item: pg_total_relation_size of the records table / N); then B joins, and its agent
// starts on an empty keychain: items/s from its start until B's keychain holds all N (a
// sample of their secrets checked); each agent's VmRSS then. At the first size, with both
// agents running: K writes on A (200 unless given), each timed from the write's return until
// B's keychain holds it (checked when B's keychain folder changes: inotify), p50 and p99.
// Prints one table with the targets beside it; the last line is the verdict.
import Foundation
import KeychainCore
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What one size measured.
struct SizeFigures {
    var size: Int
    var pushPerSecond: Double
    var pullPerSecond: Double
    var serverBytesPerItem: Double
    var pusherKiB: Int
    var pullerKiB: Int
}

let usage = "usage: keychain-sync-benchmark --keychainctl PATH [--writes K] [sizes...] (each number at least 1)"
var keychainctl: String?
var writes = 200
var sizes: [Int] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--keychainctl": keychainctl = arguments.popFirst()
    case "--writes":
        guard let value = arguments.popFirst().flatMap(Int.init), value >= 1 else { fail(usage, status: 2) }
        writes = value
    default:
        guard let value = Int(argument), value >= 1 else { fail(usage, status: 2) }
        sizes.append(value)
    }
}
guard let keychainctl, access(keychainctl, X_OK) == 0 else { fail(usage, status: 2) }
if sizes.isEmpty { sizes = [10_000, 100_000] }
sizes = Array(Set(sizes)).sorted()

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

/// `sync join` on `joiner`, approved on `approver` with the code it prints.
func join(_ joiner: BenchmarkMember, approvedBy approver: BenchmarkMember, server: String) throws {
    let log = joiner.home.appendingPathComponent("join.log")
    let joining = try joiner.start(["sync", "join", "--server", server, "--name", joiner.name, "--timeout", "120"], log: log)
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

/// One size on a fresh server and members; the propagation latencies too when `writes` > 0.
func measure(size: Int, writes: Int, keychainctl: String) throws -> (SizeFigures, [Double]) {
    let server = try PostgresTestServer()
    defer { server.remove() }
    let address = server.tcpAddress()
    let root = TestScratch.folder("sync-benchmark-\(size)")
    let token = (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    let a = try BenchmarkMember("a", in: root, keychainctl: keychainctl)
    let b = try BenchmarkMember("b", in: root, keychainctl: keychainctl)
    defer {
        a.stopAgent()
        b.stopAgent()
        try? FileManager.default.removeItem(at: root)
    }
    try a.run("sync", "setup", "--server", address, "--name", "a")

    progress("\(size): adding the items on a")
    try fill(try a.store(), count: size, token: token)

    progress("\(size): a's agent pushes them")
    let pushStart = ContinuousClock.now
    try a.startAgent()
    try waitUntil(Double(size) / 20 + 120, "a's agent pushes \(size) records", interval: 100_000) {
        try a.checkAgentRuns()
        return Int(try server.psql("SELECT count(*) FROM keychain_sync_records").trimmingCharacters(in: .whitespacesAndNewlines)) == size
    }
    let pushSeconds = seconds(ContinuousClock.now - pushStart)
    let bytes = Double(try server.psql("SELECT pg_total_relation_size('keychain_sync_records')")
        .trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan

    progress("\(size): b joins, and its agent syncs them")
    try join(b, approvedBy: a, server: address)
    let baseline = try b.rowCount()
    let pullStart = ContinuousClock.now
    try b.startAgent()
    try waitUntil(Double(size) / 20 + 120, "b's agent holds \(size) items", interval: 20_000) {
        try b.checkAgentRuns()
        return try b.rowCount() - baseline >= size
    }
    let pullSeconds = seconds(ContinuousClock.now - pullStart)
    let figures = SizeFigures(size: size, pushPerSecond: Double(size) / pushSeconds, pullPerSecond: Double(size) / pullSeconds,
                              serverBytesPerItem: bytes / Double(size), pusherKiB: try a.agentResidentKiB(),
                              pullerKiB: try b.agentResidentKiB())
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
    return (figures, latencies)
}

/// The value at `fraction` of the sorted `values` (nearest rank).
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}

var results: [SizeFigures] = []
var latencies: [Double] = []
var version = ""
do {
    for (index, size) in sizes.enumerated() {
        let (figures, measured) = try measure(size: size, writes: index == 0 ? writes : 0, keychainctl: keychainctl)
        results.append(figures)
        if index == 0 { latencies = measured }
    }
    let server = try PostgresTestServer()
    version = try server.psql("SHOW server_version").trimmingCharacters(in: .whitespacesAndNewlines)
    server.remove()
} catch {
    print("verdict: FAIL the benchmark could not run: \(error)")
    exit(1)
}

if !report(results, latencies: latencies, sizes: sizes, version: version) { exit(1) }

/// Prints the table and the targets; whether every target was met.
func report(_ results: [SizeFigures], latencies: [Double], sizes: [Int], version: String) -> Bool {
    let p50 = percentile(latencies, 0.5)
    let p99 = percentile(latencies, 0.99)
    func mebibytes(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
    print("Keychain sync on loopback: two members (keychainctl sync run each, release build), PostgreSQL \(version)")
    print("push: A's agent sends N items added while it was stopped; initial sync: B joins, its agent starts on an empty")
    print("keychain, until B holds all N; bytes: pg_total_relation_size of the records table / N; VmRSS of each agent then")
    print("   items | push items/s | initial sync items/s | server bytes/item | VmRSS MiB A (pushed) / B (synced)")
    print("---------+--------------+----------------------+-------------------+----------------------------------")
    for figures in results {
        let memory = mebibytes(figures.pusherKiB) + " / " + mebibytes(figures.pullerKiB)
        print(String(format: "%8d | %12.0f | %20.0f | %17.0f | ", figures.size, figures.pushPerSecond, figures.pullPerSecond,
                     figures.serverBytesPerItem) + memory)
    }
    print("propagation: \(latencies.count) writes on A, each from its return until B's keychain holds it (at \(sizes[0]) items):"
          + String(format: " p50 %.1f ms, p99 %.1f ms, max %.1f ms", p50, p99, latencies.max() ?? .nan))
    print("")
    print("target                                          | figure")
    print("------------------------------------------------+-------------------------------")
    var missed: [String] = []
    func target(_ name: String, _ figure: String, _ met: Bool, _ label: String) {
        print(name.padding(toLength: 47, withPad: " ", startingAt: 0) + " | " + figure + (met ? " met" : " MISSED"))
        if !met { missed.append(label) }
    }
    target("propagation p50 < 100 ms", String(format: "%.1f ms", p50), p50 < 100, "propagation-p50")
    for figures in results {
        target("initial sync >= 2,000 items/s at \(figures.size)", String(format: "%.0f items/s", figures.pullPerSecond),
               figures.pullPerSecond >= 2000, "initial-sync@\(figures.size)")
    }
    if let first = results.first, let last = results.last, results.count > 1 {
        // Flat: the largest size's memory at most 1.5 times the smallest's.
        let pushing = Double(last.pusherKiB) / Double(first.pusherKiB)
        let pulling = Double(last.pullerKiB) / Double(first.pullerKiB)
        target("agent memory flat, \(first.size) to \(last.size) (pushing)", String(format: "%.2fx", pushing), pushing <= 1.5,
               "memory-push")
        target("agent memory flat, \(first.size) to \(last.size) (syncing)", String(format: "%.2fx", pulling), pulling <= 1.5,
               "memory-pull")
    }
    if missed.isEmpty {
        print("verdict: PASS every target met, \(sizes.map(String.init).joined(separator: " and ")) items")
        return true
    }
    print("verdict: FAIL targets missed: \(missed.joined(separator: " "))")
    return false
}
