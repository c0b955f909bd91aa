import Foundation
import Security

/// The worker processes of the proof suites, as subcommands of the tests' helper and of the
/// long runs' executable. Returns false for an argument list that is none of them.
///
///   stress-worker WORKER START SECONDS KEYS SEED JOURNAL
///   crash-writer JOURNAL GROUP-SIZE none|update-all|delete-all SEED
///   crash-verify JOURNAL
///   tamper-setup ITEMS | tamper-probe ITEMS
///   log-probe ITEMS SEED
///   powercut-setup JOURNAL OPERATIONS SEED | powercut-writer JOURNAL OPERATIONS SEED THREADS
///   powercut-holder | powercut-verify JOURNAL | proof-archive PATH
///   powercut-long-lived CALLS IMAGE SCRATCH
///   iofault-worker JOURNAL enospc|eio|short write|sync AFTER SEED
public enum WorkerCommand {
    public static func run(_ arguments: [String]) -> Bool {
        // Computed when used: the log probe must install its handler before anything else runs.
        var database: URL { KeychainEnvironment.current.directory.appendingPathComponent("login.keychain-db") }
        switch (arguments.first, arguments.count) {
        case ("stress-worker", 7):
            guard let worker = Int(arguments[1]), let start = Double(arguments[2]), let seconds = Double(arguments[3]),
                  let keys = Int(arguments[4]), let seed = UInt64(arguments[5]),
                  var run = try? StressWorker(worker: worker, start: Date(timeIntervalSince1970: start), seconds: seconds,
                                              keys: keys, seed: seed, journal: URL(fileURLWithPath: arguments[6]))
            else { exit(2) }
            run.run()
        case ("crash-writer", 5):
            guard let size = Int(arguments[2]), let first = CrashWriter.FirstOperation(rawValue: arguments[3]),
                  let seed = UInt64(arguments[4]),
                  var writer = try? CrashWriter(journal: URL(fileURLWithPath: arguments[1]), groupSize: size, first: first, seed: seed)
            else { exit(2) }
            writer.run()
        case ("crash-verify", 2):
            let outcome = CrashVerifier.run(journal: URL(fileURLWithPath: arguments[1]), database: database)
            printNow(outcome.line)
            exit(outcome.passed ? 0 : 1)
        case ("tamper-setup", 2):
            let made = CorruptionProbe.setUp(count: Int(arguments[1]) ?? 0, database: database)
            printNow(made ? "ok" : "fail")
            // Ended as a killed process or a power cut ends it: without the clean close, which
            // would copy the log into the database and truncate it, so the log stays to damage.
            _exit(made ? 0 : 1)
        case ("tamper-probe", 2):
            CorruptionProbe.probe(count: Int(arguments[1]) ?? 0)
        case ("log-probe", 3):
            // Before anything logs: the library's loggers take the handler of their creation.
            LogCapture.install()
            exit(LogProbe.run(items: Int(arguments[1]) ?? 10, seed: UInt64(arguments[2]) ?? 1) ? 0 : 1)
        case ("powercut-setup", 4), ("powercut-writer", 5):
            // A call that hangs ends the worker (SIGALRM) rather than the run.
            alarm(150)
            guard let operations = Int(arguments[2]), let seed = UInt64(arguments[3]) else { exit(2) }
            let journal = URL(fileURLWithPath: arguments[1])
            if arguments[0] == "powercut-setup", ProofArchive.load() == nil { exit(2) }
            guard var writer = try? PowerCutWriter(journal: journal, seed: seed) else { exit(2) }
            writer.run(operations: operations)
            if arguments.count == 5, let threads = Int(arguments[4]), threads > 0 {
                writer.addConcurrently(threads: threads, each: 2)
            }
            printNow("done \(PowerCutControl.syncPoints)")
            // The setup exits, closing the keychain; a cut writer waits for its power cut.
            if arguments[0] == "powercut-setup" { exit(0) }
            sleep(120)
        case ("powercut-long-lived", 4):
            alarm(150)
            guard let calls = Int(arguments[1]) else { exit(2) }
            let outcome = LongLivedPowerCut.run(
                calls: calls, keychains: database.deletingLastPathComponent(), image: URL(fileURLWithPath: arguments[2]),
                scratch: URL(fileURLWithPath: arguments[3]))
            printNow(outcome.line)
            // As the power goes: no close, which would checkpoint and sync the log.
            _exit(outcome.passed ? 0 : 1)
        case ("proof-archive", 2):
            // The archive the writers import, made in a process that holds their access group.
            guard (try? ProofArchive.make(at: URL(fileURLWithPath: arguments[1]))) != nil else { exit(1) }
        case ("powercut-holder", 1):
            // A long-running app: it opened the keychain and read from it, and keeps it open.
            var settings = SecKeychainSettings()
            let status = SecKeychainCopySettings(nil, &settings)
            _ = ProofItems.readAll(service: CrashWriter.groups[0])
            printNow("holding \(status)")
            sleep(120)
        case ("powercut-verify", 2):
            alarm(150)
            let outcome = PowerCutVerifier.run(journal: URL(fileURLWithPath: arguments[1]), database: database)
            printNow(outcome.line)
            exit(outcome.passed ? 0 : 1)
        case ("iofault-worker", 6):
            alarm(150)
            guard let after = Int(arguments[4]), let seed = UInt64(arguments[5]),
                  let fault = IOFault(kind: arguments[2], on: arguments[3]),
                  var worker = try? IOFaultWorker(journal: URL(fileURLWithPath: arguments[1]), fault: fault, seed: seed)
            else { exit(2) }
            let outcome = worker.run(after: after)
            printNow(outcome.line)
            exit(outcome.passed ? 0 : 1)
        default:
            return false
        }
        return true
    }
}
