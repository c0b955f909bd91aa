import Foundation
import GRDBSQLite
import Security

/// What a durable write costs: SecItemAdd from one thread and from four threads of one
/// process (whose commits the keychain groups), beside a bare SQLite insert in WAL mode with
/// `synchronous=NORMAL` (no sync per commit) and `FULL` (one sync per commit) on the same
/// disk, so that the table shows how close the keychain comes to the disk's own limit.
struct DurableFigures: Codable {
    var bareNormal: Double
    var bareFull: Double
    var oneThread: Double
    var fourThreads: Double
    /// The medians of each round's own ratio to that round's bare FULL insert: steadier than
    /// the ratio of the medians when the disk's sync rate drifts between rounds.
    var oneThreadRatio: Double
    var fourThreadsRatio: Double
}

/// The targets, as ratios to the bare FULL insert of the same run: a disk whose syncs are
/// slower or faster scales all three alike.
let durableTargets = (oneThread: 0.79, fourThreads: 2.25)

/// Inserts `count` rows of 100 bytes, one transaction each, into a fresh WAL database;
/// rows per second.
func bareSQLiteInserts(_ count: Int, synchronous: String, in directory: URL) -> Double {
    let path = directory.appendingPathComponent("bare-\(synchronous).sqlite").path
    var db: OpaquePointer?
    guard sqlite3_open(path, &db) == SQLITE_OK, let db else { return .nan }
    defer { sqlite3_close(db) }
    sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = \(synchronous);"
                 + "CREATE TABLE t (id INTEGER PRIMARY KEY, value BLOB)", nil, nil, nil)
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, "INSERT INTO t (value) VALUES (?)", -1, &statement, nil) == SQLITE_OK else { return .nan }
    defer { sqlite3_finalize(statement) }
    let value = [UInt8](repeating: 0x5A, count: 100)
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count {
        value.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32($0.count), nil) }
        guard sqlite3_step(statement) == SQLITE_DONE else { return .nan }
        sqlite3_reset(statement)
    }
    return Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

/// `count` SecItemAdd calls split over `threads` threads, each call returning once its item
/// is durable; adds per second over the whole.
func durableAdds(_ count: Int, threads: Int, prefix: String) -> Double {
    let secret = Data(repeating: 0x5A, count: 32)
    let perThread = count / threads
    // The environment is task-local: each thread enters it again, or its adds would go to
    // the user's own default keychain.
    let environment = KeychainEnvironment.current
    // Threads of their own: Dispatch's concurrentPerform runs one iteration per core at a
    // time, which would make four writers two on this machine.
    let finished = DispatchGroup()
    let start = DispatchTime.now().uptimeNanoseconds
    for thread in 0..<threads {
        finished.enter()
        Thread.detachNewThread {
            defer { finished.leave() }
            KeychainEnvironment.withValue(environment) {
                for index in 0..<perThread {
                    let attributes = query(thread * perThread + index)
                        .merging([kSecValueData as String: secret, kSecAttrService as String: prefix]) { $1 }
                    expectSuccess(SecItemAdd(attributes as CFDictionary, nil), "durable add")
                }
            }
        }
    }
    finished.wait()
    return Double(perThread * threads) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

/// Measures each figure `rounds` times, alternating them so that a noisy moment of the
/// machine touches all of them alike, and keeps each one's median.
func measureDurableWrites(count: Int) -> DurableFigures {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("keychain-durable-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let environment = KeychainEnvironment(directory: directory, accessGroups: ["bench"])
    var samples: [[Double]] = [[], [], [], []]
    KeychainEnvironment.withValue(environment) {
        for round in 0..<rounds {
            let bareDirectory = directory.appendingPathComponent("bare-\(round)")
            try? FileManager.default.createDirectory(at: bareDirectory, withIntermediateDirectories: true)
            samples[0].append(bareSQLiteInserts(count, synchronous: "NORMAL", in: bareDirectory))
            samples[1].append(bareSQLiteInserts(count, synchronous: "FULL", in: bareDirectory))
            samples[2].append(durableAdds(count, threads: 1, prefix: "one-\(round)"))
            samples[3].append(durableAdds(count, threads: 4, prefix: "four-\(round)"))
        }
    }
    let ratios = { (figure: Int) in median(zip(samples[figure], samples[1]).map { $0 / $1 }) }
    return DurableFigures(bareNormal: median(samples[0]), bareFull: median(samples[1]),
                          oneThread: median(samples[2]), fourThreads: median(samples[3]),
                          oneThreadRatio: ratios(2), fourThreadsRatio: ratios(3))
}

func printDurableTable(_ figures: DurableFigures, count: Int) {
    print("Durable writes, per second (median of \(rounds) alternating rounds of \(count) each)")
    print("                                              writes/s")
    print("bare SQLite insert, WAL, synchronous=NORMAL | \(cell(figures.bareNormal))")
    print("bare SQLite insert, WAL, synchronous=FULL   | \(cell(figures.bareFull))")
    print("SecItemAdd, 1 thread (durable)              | \(cell(figures.oneThread))")
    print("SecItemAdd, 4 threads (durable, grouped)    | \(cell(figures.fourThreads))")
    print(String(format: "1 thread: %.2fx of bare FULL; 4 threads: %.2fx of bare FULL",
                 figures.oneThread / figures.bareFull, figures.fourThreads / figures.bareFull))
    print(String(format: "median of each round's ratio: 1 thread %.2fx, 4 threads %.2fx",
                 figures.oneThreadRatio, figures.fourThreadsRatio))
    let met = figures.oneThreadRatio >= durableTargets.oneThread && figures.fourThreadsRatio >= durableTargets.fourThreads
    print("verdict: \(met ? "PASS" : "FAIL")" + String(format: " (targets: 1 thread at least %.2fx, 4 threads at least %.2fx of bare FULL, per-round medians)",
                 durableTargets.oneThread, durableTargets.fourThreads))
}
