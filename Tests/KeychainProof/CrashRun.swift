import Foundation
import TestSupport

/// The crash run (issue 3, scope 2): a writer process is killed with SIGKILL again and
/// again, and after each kill a fresh process verifies the keychain (``CrashVerifier``).
///
/// Kills come at random moments after the writer is ready, sometimes while it is still
/// opening the keychain, and in two iterations of three during a multi-item update or
/// delete that the writer announces just before the call.
public struct CrashRun {
    public var iterations = 6
    public var groupSize = 60
    /// The longest random wait before a kill, in milliseconds.
    public var maxDelay = 150
    /// The longest wait before a kill once a multi-item call has begun, in milliseconds.
    public var maxCallDelay = 15
    public var seed: UInt64 = 1
    public let executable: URL
    public let dataHome: URL
    public static let accessGroup = "proof.crash"

    public init(executable: URL, dataHome: URL) {
        self.executable = executable
        self.dataHome = dataHome
    }

    public struct Outcome {
        public var problems: [String] = []
        public var kills = 0
        public var verified = 0
        /// Kills that left an operation pending, by kind, and whether it was then found applied.
        public var pending = PendingTally()
        public var items = 0
        public var acknowledged = 0

        public var passed: Bool { problems.isEmpty && verified == kills }

        public func killedDuring(_ kind: String) -> Int { pending.count(kind) }

        public var totals: String {
            "\(kills) kills, \(verified) verified; killed during: \(pending.summary ?? "nothing pending"); "
                + "\(acknowledged) acknowledged changes, \(items) items at the end"
        }
    }

    public var journal: URL { dataHome.appendingPathComponent("crash.journal") }

    public func run(progress: (String) -> Void = { _ in }) throws -> Outcome {
        try FileManager.default.createDirectory(at: dataHome, withIntermediateDirectories: true)
        var generator = SeededGenerator(seed: seed)
        var outcome = Outcome()
        for iteration in 0..<iterations {
            let first: CrashWriter.FirstOperation = switch iteration % 3 {
            case 1: .updateAll
            case 2: .deleteAll
            default: .none
            }
            var writer = try WorkerProcess(executable, [
                "crash-writer", journal.path, String(groupSize), first.rawValue, String(generator.next()),
            ], dataHome: dataHome, accessGroups: Self.accessGroup)
            if first == .none && iteration % 6 == 3 {
                // While it opens the keychain.
                usleep(UInt32.random(in: 0...30_000, using: &generator))
            } else {
                let awaited = first == .none ? "ready" : "go"
                while let line = writer.readLine(), line != awaited {}
                // After `go`, a shorter wait: the call has just begun, and the kill should land
                // anywhere in it, from matching the items to writing the last of them.
                let delay = first == .none ? maxDelay : maxCallDelay
                usleep(UInt32.random(in: 0...UInt32(delay * 1000), using: &generator))
            }
            writer.kill()
            outcome.kills += 1
            if !writer.wasSignalled {
                outcome.problems.append("iteration \(iteration): the writer stopped by itself (status \(writer.terminationStatus))")
            }
            var verifier = try WorkerProcess(executable, ["crash-verify", journal.path], dataHome: dataHome,
                                             accessGroups: Self.accessGroup)
            let line = verifier.finish().last ?? "fail the verifier printed nothing"
            progress("iteration \(iteration) (\(first.rawValue)): \(line)")
            let fields = line.split(separator: " ").map(String.init)
            guard fields.first == "ok", fields.count == 4, verifier.terminationStatus == 0 else {
                outcome.problems.append("iteration \(iteration): \(line)")
                break
            }
            outcome.verified += 1
            outcome.items = Int(fields[1]) ?? 0
            outcome.pending.record(fields[2], fields[3])
        }
        outcome.acknowledged = CrashModel(lines: Journal.lines(of: journal)).acknowledged
        return outcome
    }
}
