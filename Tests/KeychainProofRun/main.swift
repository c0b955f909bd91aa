// The long runs of the proof suites (issue 3, scopes 1, 2, 4 and 5; power loss, I/O faults); `swift test` runs short
// samples of the same code. Each works in a private keychain in a temporary folder and
// spawns this executable again as its worker processes.
//
//   keychain-proof stress  [--workers N] [--seconds S] [--keys K] [--seed S]
//   keychain-proof crash   [--iterations N] [--group-size N] [--seed S]
//   keychain-proof tamper  [--items N] [--random N] [--seed S]
//   keychain-proof at-rest [--items N] [--seed S]
//   keychain-proof power-loss [--rounds N] [--operations N] [--holder 0|1] [--long-lived N] [--seed S]
//   keychain-proof io-faults  [--positions N] [--seed S]
//   keychain-proof remanence [--rounds N] [--steps N] [--items N] [--holders N] [--seed S]
//   keychain-proof crash-keychain [--iterations N] [--group-size N] [--password 0] [--create 0] [--archive 0] [--seed S]
//
// The last line printed is the verdict: PASS or FAIL with the key figures.
import Foundation
import KeychainProof
import Security
import TestSupport

let arguments = Array(CommandLine.arguments.dropFirst())
if WorkerCommand.run(arguments) { exit(0) }
if RemanenceHolder.run(arguments) { exit(0) }
if CrashKeychainCommand.run(arguments) { exit(0) }

var options: [String: Int] = [:]
var rest = arguments.dropFirst()
while let name = rest.popFirst() {
    guard name.hasPrefix("--"), let value = rest.popFirst().flatMap({ Int($0) }) else {
        FileHandle.standardError.write(Data("usage: keychain-proof stress|crash|crash-keychain|tamper|at-rest|power-loss|io-faults|remanence [--option N]...\n".utf8))
        exit(2)
    }
    options[String(name.dropFirst(2))] = value
}
let seed = UInt64(options["seed"] ?? Int.random(in: 1...Int(UInt32.max)))
let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
let work = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-proof-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: work) }
let started = Date()

@MainActor func finish(_ passed: Bool, _ problems: [String], _ figures: String) -> Never {
    let seconds = Int(Date().timeIntervalSince(started))
    for problem in problems { print("problem: \(problem)") }
    print("\(passed ? "PASS" : "FAIL"): \(figures), seed \(seed), \(seconds) s")
    try? FileManager.default.removeItem(at: work)
    exit(passed ? 0 : 1)
}

do {
    switch arguments.first {
    case "stress":
        var run = StressRun(executable: executable, dataHome: work)
        run.workers = options["workers"] ?? 4
        run.seconds = Double(options["seconds"] ?? 60)
        run.keysPerWorker = options["keys"] ?? 200
        run.seed = seed
        print("stress: \(run.workers) processes for \(Int(run.seconds)) s, \(run.keysPerWorker) keys each, seed \(seed)")
        let outcome = try run.run()
        print(outcome.totals)
        for line in outcome.workerLog { print("worker log: \(line)") }
        let total = outcome.operations.values.reduce(0, +)
        finish(outcome.passed, outcome.problems,
               "\(run.workers) processes, \(total) operations, \(outcome.acknowledged) acknowledged writes, "
               + "\(outcome.raceKeys) contended keys each with one winner, \(outcome.itemsVerified) items verified, integrity \(outcome.integrity)")
    case "crash":
        var run = CrashRun(executable: executable, dataHome: work)
        run.iterations = options["iterations"] ?? 40
        run.groupSize = options["group-size"] ?? 300
        run.maxDelay = 400
        run.seed = seed
        print("crash: \(run.iterations) SIGKILLs of a writer, groups of \(run.groupSize) items, seed \(seed)")
        let outcome = try run.run { print("  \($0)") }
        print(outcome.totals)
        let multi = ["update-all", "delete-all"].map { "\(outcome.killedDuring($0)) during \($0)" }.joined(separator: ", ")
        let passed = outcome.passed && outcome.kills >= 20 && outcome.killedDuring("update-all") > 0 && outcome.killedDuring("delete-all") > 0
        finish(passed, outcome.problems, "\(outcome.kills) kills survived (\(multi)), \(outcome.acknowledged) acknowledged changes intact")
    case "tamper":
        var run = CorruptionRun(executable: executable, workFolder: work)
        run.items = options["items"] ?? 200
        let sizes = try run.setUp()
        var cases = CorruptionCase.standard(databaseSize: sizes.database, logSize: sizes.log, pageSize: sizes.pageSize)
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<(options["random"] ?? 100) {
            cases.append(.truncateDatabase(Int.random(in: 0..<sizes.database, using: &generator)))
            cases.append(.truncateLog(Int.random(in: 0..<max(sizes.log, 1), using: &generator)))
        }
        print("tamper: \(run.items) items, database \(sizes.database) B, WAL \(sizes.log) B, \(cases.count) cases, seed \(seed)")
        let outcome = try run.run(cases)
        print(outcome.totals)
        finish(outcome.passed, outcome.problems, outcome.totals)
    case "at-rest":
        var run = AtRestRun()
        run.items = options["items"] ?? 10_000
        run.seed = seed
        let folder = work.appendingPathComponent("keychains")
        print("at-rest: \(run.items) items with markers, seed \(seed)")
        let outcome = KeychainEnvironment.withValue(KeychainEnvironment(directory: folder, accessGroups: ["proof.at-rest"])) {
            run.run(folder: folder)
        }
        print(outcome.totals)
        var logs = try WorkerProcess(executable, ["log-probe", "200", String(seed)],
                                     dataHome: work.appendingPathComponent("logs"), accessGroups: "proof.logs")
        let lines = logs.finish()
        for line in lines { print("  log probe: \(line)") }
        let logsPassed = lines.last == "PASS" && logs.terminationStatus == 0
        finish(outcome.passed && logsPassed, outcome.problems,
               "\(outcome.markers) markers, none in \(outcome.files.count) files; logs at trace: "
               + "\(lines.first ?? "-"), \(logsPassed ? "no marker" : "a marker leaked")")
    case "power-loss":
        var run = PowerCutRun(executable: executable, work: work, shim: try PowerCutShim.build(into: work.appendingPathComponent("shim")))
        run.rounds = options["rounds"] ?? 8
        run.operations = options["operations"] ?? 12
        run.setupOperations = 8
        run.withHolder = (options["holder"] ?? 1) != 0
        // Every fourth run creates the keychain under the power cuts.
        run.creationEvery = 4
        run.seed = seed
        print("power-loss: \(run.rounds) runs of \(run.operations) changes, the power cut at every sync point, "
              + "\(run.withHolder ? "another process holding the keychain open" : "no other process") "
              + "(every 4th run creating the keychain, alone), seed \(seed)")
        let outcome = try run.run { print("  \($0)") }
        print(outcome.totals)
        // Then a process that keeps the keychain open: a power cut after each of its deletes
        // and updates must leave the superseded secrets in no file.
        let calls = options["long-lived"] ?? 24
        let longLived = try LongLivedPowerCut.runWorker(
            executable: executable, work: work.appendingPathComponent("long-lived"),
            shim: try PowerCutShim.build(into: work.appendingPathComponent("long-lived-shim")), calls: calls)
        print("  long-lived process, \(calls) deletes and updates: \(longLived.line)")
        finish(outcome.passed && longLived.passed,
               outcome.problems + (longLived.passed ? [] : ["long-lived process: \(longLived.line)"]),
               outcome.totals + "; long-lived process: \(longLived.passed ? "nothing superseded left" : "FAILED")")
    case "io-faults":
        var run = IOFaultRun(executable: executable, work: work, shim: try PowerCutShim.build(into: work.appendingPathComponent("shim")))
        var generator = SeededGenerator(seed: seed)
        run.positions = [1] + (1..<(options["positions"] ?? 8)).map { _ in Int.random(in: 2...40, using: &generator) }
        run.seed = seed
        print("io-faults: \(run.faults.count) faults at writes or syncs \(run.positions.map(String.init).joined(separator: ", ")), seed \(seed)")
        let outcome = try run.run { print("  \($0)") }
        print(outcome.totals)
        finish(outcome.succeeded, outcome.problems, outcome.totals)
    case "remanence":
        try runRemanence()
    case "crash-keychain":
        try runCrashKeychain()
    default:
        FileHandle.standardError.write(Data("usage: keychain-proof stress|crash|crash-keychain|tamper|at-rest|power-loss|io-faults|remanence [--option N]...\n".utf8))
        exit(2)
    }
} catch {
    finish(false, ["\(error)"], "the run could not be carried out")
}

/// The long remanence run: rounds of random password, delete and update changes, each
/// checked in every page version of the files, with holder processes.
@MainActor func runRemanence() throws {
    var run = RemanenceRun(executable: executable, dataHome: work)
    run.rounds = options["rounds"] ?? 10
    run.randomSteps = options["steps"] ?? 12
    run.itemsPerClass = options["items"] ?? 5
    run.holders = options["holders"] ?? 2
    run.seed = seed
    print("remanence: \(run.rounds) rounds of \(run.randomSteps) random changes, \(run.holders) holder processes, seed \(seed)")
    let outcome = try run.run { print("  \($0)") }
    print(outcome.totals)
    let failed = outcome.failed.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    finish(outcome.passed, outcome.problems,
           outcome.passed ? "no superseded key, password or secret in any page version; \(outcome.totals)"
                          : "superseded bytes remain after: \(failed)")
}

/// The long keychain crash run: kills during password changes and keychain creation, with
/// item traffic from another process.
@MainActor func runCrashKeychain() throws {
    // keychainctl, for the archive iterations, as Scripts/crash-keychain builds it: beside this program.
    let keychainctl = executable.deletingLastPathComponent().appendingPathComponent("keychainctl")
    var run = CrashKeychainRun(executable: executable, dataHome: work,
                               keychainctl: FileManager.default.isExecutableFile(atPath: keychainctl.path) ? keychainctl : nil)
    run.iterations = options["iterations"] ?? 40
    run.groupSize = options["group-size"] ?? 100
    run.seed = seed
    // --password 0, --create 0 and --archive 0 leave out the password changes, the
    // creations, or the archive exports and imports.
    run.modes = run.modes.filter { options[$0.rawValue] != 0 }
    guard !run.modes.isEmpty else { finish(false, ["--password 0, --create 0 and --archive 0 leave nothing to do"], "nothing was run") }
    print("crash-keychain: \(run.iterations) SIGKILLs during password changes, keychain creation and archive export and import, seed \(seed)")
    let outcome = try run.run { print("  \($0)") }
    print(outcome.totals)
    let kinds = ["set-password", "change-password", "remove-password", "create-keychain", "export-archive", "import-archive"]
    let during = kinds.map { "\(outcome.killedDuring($0)) during \($0)" }.joined(separator: ", ")
    let writes = run.modes.contains(.password) || run.modes.contains(.create)
    finish(outcome.passed && (outcome.acknowledged > 0 || !writes), outcome.problems,
           "\(outcome.kills) kills survived (\(during)), \(outcome.acknowledged) acknowledged keychain changes intact")
}
