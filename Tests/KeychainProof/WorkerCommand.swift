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
        default:
            return false
        }
        return true
    }
}
