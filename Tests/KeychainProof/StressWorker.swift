import Foundation
import Security
import TestSupport

/// One process of the multi-process stress run (issue 3, scope 1).
///
/// Until its deadline it adds, finds, updates and deletes items of its own service
/// (`stress.w<N>`, which no other worker touches, so the journal predicts every status), and
/// races the other workers to add the shared items `race-0`, `race-1`, ... of `stress.race`:
/// every worker walks that sequence, so each key is contended by whoever reaches it. Every
/// call is journaled after it returns, with its status; the parent checks them.
public struct StressWorker {
    public static let raceService = "stress.race"
    public static func ownService(_ worker: Int) -> String { "stress.w\(worker)" }

    let worker: Int
    let start: Date
    let seconds: Double
    let keys: Int
    let journal: Journal
    var generator: SeededGenerator

    public init(worker: Int, start: Date, seconds: Double, keys: Int, seed: UInt64, journal: URL) throws {
        self.worker = worker
        self.start = start
        self.seconds = seconds
        self.keys = keys
        self.journal = try Journal(appendingTo: journal)
        generator = SeededGenerator(seed: seed &+ UInt64(worker) &* 0x9E37_79B9)
    }

    /// The racing adds each worker makes at least (for keys race-0, race-1, ...).
    static let racesEveryWorkerRuns = 3

    public mutating func run() {
        let wait = start.timeIntervalSinceNow
        if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
        let deadline = Date(timeIntervalSinceNow: seconds)
        let own = Self.ownService(worker)
        var raced = 0
        var counter = 0
        journal.append("start", String(worker))
        // Every worker races for the first keys, however late a loaded machine started it,
        // so that racing adds always meet: the run lasts until the deadline and those races.
        while Date() < deadline || raced < Self.racesEveryWorkerRuns {
            counter += 1
            let token = "\(worker).\(counter).\(String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 36))"
            let account = "k\(Int.random(in: 0..<keys, using: &generator))"
            let draw = Int.random(in: 0..<100, using: &generator)
            switch Date() < deadline ? draw : 0 {
            case 0..<15:
                let key = "race-\(raced)"
                raced += 1
                let status = ProofItems.add(service: Self.raceService, account: key, token: token)
                journal.append("race", key, token, String(status))
            case 15..<20 where raced > 0:
                let key = "race-\(Int.random(in: 0..<raced, using: &generator))"
                let found = ProofItems.read(service: Self.raceService, account: key)
                journal.append("race-find", key, found.token ?? "-", String(found.status))
            case 20..<50:
                journal.append("add", account, token, String(ProofItems.add(service: own, account: account, token: token)))
            case 50..<70:
                let found = ProofItems.read(service: own, account: account)
                journal.append("find", account, found.token ?? "-", String(found.status))
            case 70..<90:
                let status = ProofItems.update(ProofItems.query(service: own, account: account), token: token)
                journal.append("update", account, token, String(status))
            default:
                let status = SecItemDelete(ProofItems.query(service: own, account: account) as CFDictionary)
                journal.append("delete", account, "-", String(status))
            }
        }
        journal.append("end", String(worker))
    }
}
