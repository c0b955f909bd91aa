import Foundation
import TestSupport

/// The keychain crash run: a process that sets, changes and removes the default keychain's
/// password, or creates keychains with passwords, or keychainctl exporting the keychain into
/// an archive, is killed with SIGKILL at random moments while another process adds, updates
/// and deletes items in the default keychain; after each kill a fresh process checks both
/// (``CrashKeychainVerifier``), and an archive left behind is imported, once whole and once
/// killed (``CrashArchive``).
///
/// Iterations take the modes in turn; in half of them the kill waits for a first
/// acknowledged change, or for the export to finish. The item writer is killed just after the
/// keychain writer, so its calls overlap the keychain changes to the end.
public struct CrashKeychainRun {
    public var iterations = 6
    public var groupSize = 30
    /// The longest random wait before a kill, in milliseconds: a password change derives two
    /// scrypt keys, a few hundred milliseconds here, so kills land before, in and between them.
    public var maxDelay = 1200
    public var seed: UInt64 = 1
    public enum Mode: String, Sendable {
        case password, create
        /// keychainctl's export-archive, then import-archive, killed (see ``CrashArchive``).
        case archive
    }

    /// The modes the iterations take in turn: all three when keychainctl is given.
    public var modes: [Mode]
    public let executable: URL
    public let dataHome: URL
    /// The keychainctl executable, for the archive iterations.
    public let keychainctl: URL?

    public init(executable: URL, dataHome: URL, keychainctl: URL? = nil) {
        self.executable = executable
        self.dataHome = dataHome
        self.keychainctl = keychainctl
        modes = keychainctl == nil ? [.password, .create] : [.password, .create, .archive]
    }

    public struct Outcome {
        public var problems: [String] = []
        public var kills = 0
        public var verified = 0
        /// Kills that left a change pending, by kind, and whether it was then found applied.
        public var pending = PendingTally()
        public var acknowledged = 0

        public var passed: Bool { problems.isEmpty && verified == kills }

        public func killedDuring(_ kind: String) -> Int { pending.count(kind) }

        public var totals: String {
            "\(kills) kills, \(verified) verified; killed during: \(pending.summary ?? "nothing pending"); "
                + "\(acknowledged) acknowledged keychain changes"
        }
    }

    public var journal: URL { dataHome.appendingPathComponent("crash-keychain.journal") }
    public var itemJournal: URL { dataHome.appendingPathComponent("crash-items.journal") }

    public func run(progress: (String) -> Void = { _ in }) throws -> Outcome {
        try FileManager.default.createDirectory(at: dataHome, withIntermediateDirectories: true)
        var generator = SeededGenerator(seed: seed)
        var outcome = Outcome()
        let archive = keychainctl.map { CrashArchive(keychainctl: $0, dataHome: dataHome) }
        var archiveIterations = 0
        for iteration in 0..<iterations {
            let mode = modes[iteration % modes.count]
            var items = try WorkerProcess(executable, [
                "crash-writer", itemJournal.path, String(groupSize), "none", String(generator.next()),
            ], dataHome: dataHome, accessGroups: CrashRun.accessGroup)
            while let line = items.readLine(), line != "ready" {}
            var writer: WorkerProcess?
            var archiveVersion: String?
            var exporting: SpawnedProcess?
            switch mode {
            case .password, .create:
                var worker = try WorkerProcess(executable, [
                    "crash-keychain-writer", journal.path, mode.rawValue, String(generator.next()),
                ], dataHome: dataHome, accessGroups: CrashRun.accessGroup)
                while let line = worker.readLine(), line != "ready" {}
                // Half the kills come after a first acknowledged change, so that the run always
                // sees acknowledged changes kept, whatever the machine's speed.
                if iteration % 4 >= 2 { while let line = worker.readLine(), line != "ok" {} }
                usleep(UInt32.random(in: 0...UInt32(maxDelay * 1000), using: &generator))
                worker.kill()
                writer = worker
            case .archive:
                guard let archive else { throw ProofFailure("the archive iterations need keychainctl") }
                archiveVersion = archive.archiveVersion()
                exporting = try archive.export()
                // Every other export is left to finish, so that imports of new archives are killed too.
                archiveIterations += 1
                if archiveIterations % 2 == 1 {
                    usleep(UInt32.random(in: 0...UInt32(maxDelay * 1000), using: &generator))
                    exporting?.kill()
                }
            }
            items.kill()
            outcome.kills += 1
            if let writer, !writer.wasSignalled {
                outcome.problems.append("iteration \(iteration): the keychain writer stopped by itself (status \(writer.terminationStatus))")
            }
            if let ended = exporting?.wait(), !ended.signalled, ended.status != 0 {
                outcome.problems.append("iteration \(iteration): export-archive failed by itself (status \(ended.status))")
            }
            if !items.wasSignalled {
                outcome.problems.append("iteration \(iteration): the item writer stopped by itself (status \(items.terminationStatus))")
            }
            var verifier = try WorkerProcess(executable, ["crash-keychain-verify", journal.path, itemJournal.path],
                                             dataHome: dataHome, accessGroups: CrashRun.accessGroup)
            let line = verifier.finish().last ?? "fail the verifier printed nothing"
            progress("iteration \(iteration) (\(mode.rawValue)): \(line)")
            let fields = line.split(separator: " ").map(String.init)
            guard fields.first == "ok", fields.count == 4, verifier.terminationStatus == 0 else {
                outcome.problems.append("iteration \(iteration) (\(mode.rawValue)): \(line)")
                break
            }
            if let archive, let exporting {
                let ended = exporting.wait()
                let exportOutcome = !ended.signalled ? "none" : archive.archiveVersion() != archiveVersion ? "applied" : "absent"
                // An import is one scrypt run and one transaction: a shorter wait lands in it.
                let checked = try archive.check(iteration: iteration, exportOutcome: exportOutcome) {
                    UInt32.random(in: 0...UInt32(maxDelay * 1000 / 3), using: &generator)
                }
                for (kind, result) in checked.results { outcome.pending.record(kind, result) }
                progress("iteration \(iteration) (archive): \(checked.problem ?? "ok") \(checked.results.map { "\($0.kind) \($0.outcome)" }.joined(separator: ", "))")
                if let problem = checked.problem {
                    outcome.problems.append("iteration \(iteration) (archive): \(problem)")
                    break
                }
            }
            outcome.verified += 1
            outcome.pending.record(fields[2], fields[3])
        }
        outcome.acknowledged = CrashKeychainModel(lines: Journal.lines(of: journal)).acknowledged
        return outcome
    }
}
