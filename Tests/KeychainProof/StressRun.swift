import Foundation
import Security

/// The multi-process stress run (issue 3, scope 1): N worker processes on one keychain for a
/// bounded time, then a check of the final state against their journals.
///
/// Passes when every status a worker saw is the one its own key space predicts, every
/// acknowledged write is present with its data and nothing else is (no half-applied
/// change: secret and label always name one token), every contended key had exactly one
/// winner whose value is stored, and SQLite's integrity check says "ok".
public struct StressRun {
    public var workers = 4
    public var seconds = 2.0
    public var keysPerWorker = 40
    public var seed: UInt64 = 1
    public let executable: URL
    public let dataHome: URL
    public static let accessGroup = "proof.stress"

    public init(executable: URL, dataHome: URL) {
        self.executable = executable
        self.dataHome = dataHome
    }

    public struct Outcome {
        public var problems: [String] = []
        public var operations: [String: Int] = [:]
        public var acknowledged = 0
        public var raceKeys = 0
        public var raceAttempts = 0
        public var itemsVerified = 0
        public var integrity = ""
        /// What the workers logged, when a check failed: distinct lines with their counts.
        public var workerLog: [String] = []

        public var passed: Bool { problems.isEmpty && integrity == "ok" }

        public var totals: String {
            let kinds = operations.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "operations: \(kinds); acknowledged writes \(acknowledged); "
                + "contended keys \(raceKeys) (\(raceAttempts) racing adds); items verified \(itemsVerified); integrity \(integrity)"
        }

        mutating func problem(_ text: String) {
            if problems.count < 30 { problems.append(text) }
        }
    }

    public func journal(_ worker: Int) -> URL { dataHome.appendingPathComponent("stress-\(worker).journal") }

    /// Where the workers' standard error goes: nothing is expected there, so when a check
    /// fails, what the library logged is the first clue to why.
    var errorLog: URL { dataHome.appendingPathComponent("stress-workers.log") }

    /// The log's distinct lines, each with how often it came, the most frequent first (at
    /// most 20; empty when the log is missing).
    static func distinctLines(of log: URL) -> [String] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        var counts: [Substring: Int] = [:]
        for line in text.split(separator: "\n") { counts[line, default: 0] += 1 }
        return counts.sorted { $0.value > $1.value }.prefix(20).map { "\($0.value)x \($0.key)" }
    }

    /// Runs the workers, waits for them, and checks what they left (in this process, with
    /// the environment pointing at the same keychain).
    public func run() throws -> Outcome {
        try FileManager.default.createDirectory(at: dataHome, withIntermediateDirectories: true)
        let start = Date().timeIntervalSince1970 + 1
        var processes = try (0..<workers).map { worker in
            try WorkerProcess(executable, [
                "stress-worker", String(worker), String(start), String(seconds), String(keysPerWorker),
                String(seed), journal(worker).path,
            ], dataHome: dataHome, accessGroups: Self.accessGroup, errorLog: errorLog)
        }
        var outcome = Outcome()
        for index in processes.indices {
            _ = processes[index].finish()
            if processes[index].terminationStatus != 0 || processes[index].wasSignalled {
                outcome.problem("worker \(index) did not finish cleanly (status \(processes[index].terminationStatus))")
            }
        }
        let environment = KeychainEnvironment(
            directory: dataHome.appendingPathComponent("keychains"), accessGroups: [Self.accessGroup])
        KeychainEnvironment.withValue(environment) { verify(into: &outcome) }
        outcome.integrity = IntegrityCheck.run(database: environment.directory.appendingPathComponent("login.keychain-db"))
        if !outcome.problems.isEmpty { outcome.workerLog = Self.distinctLines(of: errorLog) }
        return outcome
    }

    func verify(into outcome: inout Outcome) {
        var races: [String: (winners: [String], others: [OSStatus])] = [:]
        var raceFinds: [(worker: Int, key: String, token: String, status: OSStatus)] = []
        for worker in 0..<workers {
            let lines = Journal.lines(of: journal(worker))
            if lines.last?.first != "end" { outcome.problem("worker \(worker)'s journal does not end") }
            var model: [String: String] = [:]
            for line in lines where line.count == 4 {
                let (kind, key, token) = (line[0], line[1], line[2])
                guard let status = OSStatus(line[3]) else { continue }
                outcome.operations[kind, default: 0] += 1
                let present = model[key]
                // What this worker's own key space predicts for the call.
                let expected: OSStatus
                switch kind {
                case "race":
                    if status == errSecSuccess {
                        races[key, default: ([], [])].winners.append(token)
                        outcome.acknowledged += 1
                    } else {
                        races[key, default: ([], [])].others.append(status)
                    }
                    continue
                case "race-find":
                    raceFinds.append((worker, key, token, status))
                    continue
                case "add": expected = present == nil ? errSecSuccess : errSecDuplicateItem
                case "find", "update", "delete": expected = present == nil ? errSecItemNotFound : errSecSuccess
                default: continue
                }
                if status != expected {
                    outcome.problem("worker \(worker): \(kind) of \(key) gave \(status), expected \(expected)")
                }
                if kind == "find", status == errSecSuccess, token != present {
                    outcome.problem("worker \(worker): find of \(key) read \(token), expected \(present ?? "nothing")")
                }
                guard status == errSecSuccess else { continue }
                switch kind {
                case "add", "update": model[key] = token; outcome.acknowledged += 1
                case "delete": model[key] = nil; outcome.acknowledged += 1
                default: break
                }
            }
            compare(ProofItems.readAll(service: StressWorker.ownService(worker)), with: model,
                    what: "worker \(worker)'s items", into: &outcome)
        }
        outcome.raceKeys = races.count
        outcome.raceAttempts = races.values.reduce(0) { $0 + $1.winners.count + $1.others.count }
        var winners: [String: String] = [:]
        for (key, entry) in races {
            if entry.winners.count != 1 {
                outcome.problem("\(key) had \(entry.winners.count) winners")
            }
            if let other = entry.others.first(where: { $0 != errSecDuplicateItem }) {
                outcome.problem("a racing add of \(key) gave \(other), expected errSecDuplicateItem")
            }
            winners[key] = entry.winners.first
        }
        for find in raceFinds where find.status != errSecSuccess || find.token != winners[find.key] {
            // The worker had already raced for the key, so it existed, and no one changes it.
            outcome.problem("worker \(find.worker): find of \(find.key) gave \(find.status) \(find.token), expected \(winners[find.key] ?? "-")")
        }
        compare(ProofItems.readAll(service: StressWorker.raceService), with: winners, what: "contended items", into: &outcome)
    }

    func compare(_ stored: (status: OSStatus, items: [String: ProofItems.Stored]), with model: [String: String],
                 what: String, into outcome: inout Outcome) {
        guard stored.status == errSecSuccess else {
            outcome.problem("reading \(what) gave \(stored.status)")
            return
        }
        for (key, item) in stored.items where !item.isWhole {
            outcome.problem("\(what): \(key) is half written (secret \(item.secret ?? "-"), label \(item.label ?? "-"))")
        }
        for (key, token) in model where stored.items[key]?.secret != token {
            outcome.problem("\(what): acknowledged \(key) = \(token) but stored \(stored.items[key]?.secret ?? "nothing")")
        }
        for key in stored.items.keys where model[key] == nil {
            outcome.problem("\(what): \(key) is stored but no acknowledged write left it there")
        }
        outcome.itemsVerified += stored.items.count
    }
}
