import Foundation
import TestSupport

/// The power-loss run: a writer's power is cut at every sync point of its run, and after
/// each cut a fresh process verifies the folder a power cut would leave (``PowerCutVerifier``).
///
/// A setup process first makes a keychain and some changes, and exits. Then, for each cut,
/// a copy of that keychain is opened by a holder process (a long-running app that opened
/// the keychain and read from it), and a writer, loaded with the shim
/// (Tests/PowerCutShim/powercut.c), makes its changes there while the shim keeps the
/// durable image of the folder; last, it adds items on several threads at once. A first
/// writer runs to its end, to count the sync points and to cut the power after its last
/// change; then one writer per sync point is killed at that point, before it takes effect.
/// The holder dies with the power too.
public struct PowerCutRun {
    /// Changes each cut writer makes.
    public var operations = 6
    /// Changes the setup process makes before the cuts.
    public var setupOperations = 6
    /// Threads that then add two items each at once, in the cut writer (0: none).
    public var concurrentWriters = 3
    /// Runs, each with its own seed (`seed`, `seed + 1`, ...) and every sync point cut.
    public var rounds = 1
    /// Whether another process holds the keychain open during the writes.
    public var withHolder = true
    /// Rounds (by number: every `creationEvery`th, counting from 1; 0 for none) in which the
    /// writer creates the keychain itself, in an empty folder, with no setup and no holder:
    /// the power is then also cut while its files are created.
    public var creationEvery = 0
    public var seed: UInt64 = 1
    public let executable: URL
    public let work: URL
    public let shim: PowerCutShim
    public static let accessGroup = "proof.crash"

    public init(executable: URL, work: URL, shim: PowerCutShim) {
        self.executable = executable
        self.work = work
        self.shim = shim
    }

    public struct Outcome {
        public var problems: [String] = []
        public var cuts = 0
        public var verified = 0
        /// Sync points of the writers that ran to their end, added over the rounds.
        public var syncPoints = 0
        /// Cuts that left an operation under way, by kind, and whether it was then found applied.
        public var pending = PendingTally()
        /// Changes the writers acknowledged before the cuts, over all cuts.
        public var acknowledged = 0

        public var passed: Bool { problems.isEmpty && verified == cuts && cuts > 0 }

        public var totals: String {
            "\(cuts) power cuts at \(syncPoints) sync points, \(verified) verified; "
                + "cut during: \(pending.summary ?? "nothing"); \(acknowledged) acknowledged changes checked"
        }
    }

    var environment: [String: String?] {
        ["KEYCHAIN_NO_KERNEL_KEYRING": "1", ProofArchive.environmentVariable: work.appendingPathComponent("archive").path]
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> Outcome {
        var outcome = Outcome()
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try ProofArchive.make(at: work.appendingPathComponent("archive"), executable: executable, accessGroups: Self.accessGroup)
        for round in 0..<rounds {
            let roundSeed = seed &+ UInt64(round)
            let base = work.appendingPathComponent("base-\(round)")
            let creating = creationEvery > 0 && (round + 1) % creationEvery == 0
            if creating {
                try FileManager.default.createDirectory(at: base.appendingPathComponent("keychains"),
                                                        withIntermediateDirectories: true)
            } else {
                try setUp(base, seed: roundSeed)
            }
            // The run to the end: how many sync points there are, and a cut after the last change.
            let first = try cut(from: base, at: nil, seed: roundSeed, holder: withHolder && !creating,
                                outcome: &outcome, progress: progress)
            guard let syncPoints = first, syncPoints >= 0 else {
                outcome.problems.append("round \(round): the writer did not report its sync points (is the shim loaded?)")
                continue
            }
            outcome.syncPoints += syncPoints
            for point in stride(from: 1, through: syncPoints, by: 1) {
                _ = try cut(from: base, at: point, seed: roundSeed, holder: withHolder && !creating,
                            outcome: &outcome, progress: progress)
            }
            try? FileManager.default.removeItem(at: base)
        }
        return outcome
    }

    /// The setup: a keychain with the changes of a writer that exits normally.
    func setUp(_ base: URL, seed: UInt64) throws {
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        var setup = try WorkerProcess(executable, ["powercut-setup", base.appendingPathComponent("journal").path,
                                                   String(setupOperations), String(seed)],
                                      dataHome: base, accessGroups: Self.accessGroup, environment: environment)
        let lines = setup.finish()
        guard setup.terminationStatus == 0, lines.last?.hasPrefix("done") == true else {
            throw ProofFailure("the setup failed (status \(setup.terminationStatus)): \(lines.joined(separator: " / "))")
        }
    }

    /// One cut: at sync point `point`, or after the writer's last change when nil. Returns
    /// the sync points the writer reported when it ran to its end.
    func cut(from base: URL, at point: Int?, seed: UInt64, holder withHolder: Bool, outcome: inout Outcome,
             progress: (String) -> Void) throws -> Int? {
        let name = "cut-\(point.map(String.init) ?? "end")"
        let live = work.appendingPathComponent(name)
        let image = work.appendingPathComponent("\(name)-image")
        let after = work.appendingPathComponent("\(name)-after")
        defer { for folder in [live, image, after] { try? FileManager.default.removeItem(at: folder) } }
        try FileManager.default.copyItem(at: base, to: live)
        try FileManager.default.createDirectory(at: image, withIntermediateDirectories: true)
        let journal = live.appendingPathComponent("journal")
        let folder = live.appendingPathComponent("keychains")

        var holder: WorkerProcess?
        if withHolder {
            var process = try WorkerProcess(executable, ["powercut-holder"], dataHome: live,
                                            accessGroups: Self.accessGroup, environment: environment)
            guard process.readLine()?.hasPrefix("holding") == true else {
                process.kill()
                throw ProofFailure("the holder could not open the keychain")
            }
            holder = process
        }
        var writer = try WorkerProcess(
            executable, ["powercut-writer", journal.path, String(operations), String(seed &+ 1_000), String(concurrentWriters)],
            dataHome: live, accessGroups: Self.accessGroup,
            environment: environment.merging(shim.environment(watching: folder, image: image, killAt: point)) { $1 })
        var reported: Int?
        while let line = writer.readLine() {
            if line.hasPrefix("done ") { reported = Int(line.dropFirst(5)); break }
        }
        // The power goes: the writer (if the shim has not killed it already) and the holder.
        writer.kill()
        holder?.kill()
        outcome.cuts += 1
        let label = point.map { "sync point \($0)" } ?? "the end"
        if !writer.wasSignalled {
            outcome.problems.append("cut at \(label): the writer stopped by itself (status \(writer.terminationStatus))")
            return reported
        }
        if point != nil, reported != nil {
            // The writer never reached the point: its run had fewer sync points this time.
            progress("cut at \(label): the writer finished first")
        }

        try PowerCutShim.restore(image: image, into: after.appendingPathComponent("keychains"))
        var verifier = try WorkerProcess(executable, ["powercut-verify", journal.path], dataHome: after,
                                         accessGroups: Self.accessGroup, environment: environment)
        let line = verifier.finish().last ?? "fail the verifier printed nothing"
        progress("cut at \(label): \(line)")
        let fields = line.split(separator: " ").map(String.init)
        guard fields.first == "ok", fields.count == 4, verifier.terminationStatus == 0 else {
            outcome.problems.append("cut at \(label) (seed \(seed)): \(line)")
            return reported
        }
        outcome.verified += 1
        outcome.acknowledged += CrashModel(lines: Journal.lines(of: journal)).acknowledged
        outcome.pending.record(fields[2], fields[3])
        return reported
    }
}
