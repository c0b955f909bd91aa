import Foundation
import TestSupport

/// The I/O-fault run: for each fault (``IOFault/all``) and each position (the `after`th
/// write or sync once the worker's first changes are made), a worker loaded with the shim
/// meets the fault (``IOFaultWorker``), then a fresh process without the shim opens the
/// keychain and checks it again (``PowerCutVerifier``).
public struct IOFaultRun {
    public var faults = IOFault.all
    /// The positions of the fault, in writes or syncs after the worker's first changes.
    public var positions = [1, 4]
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
        public var runs = 0
        public var passed = 0
        /// Calls that failed during a fault, with the documented status.
        public var failedCalls = 0
        public var acknowledged = 0

        public var succeeded: Bool { problems.isEmpty && passed == runs && runs > 0 }

        public var totals: String {
            "\(runs) faults injected, \(passed) survived: \(failedCalls) calls failed with the documented status, "
                + "\(acknowledged) calls before the faults acknowledged and kept"
        }
    }

    public func run(progress: (String) -> Void = { _ in }) throws -> Outcome {
        var outcome = Outcome()
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let archive = work.appendingPathComponent("archive")
        try ProofArchive.make(at: archive, executable: executable, accessGroups: Self.accessGroup)
        let environment: [String: String?] = ["KEYCHAIN_NO_KERNEL_KEYRING": "1", ProofArchive.environmentVariable: archive.path]
        var generator = SeededGenerator(seed: seed)
        for fault in faults {
            for after in positions {
                let runSeed = generator.next()
                let dataHome = work.appendingPathComponent("fault-\(outcome.runs)")
                defer { try? FileManager.default.removeItem(at: dataHome) }
                let folder = dataHome.appendingPathComponent("keychains")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let journal = dataHome.appendingPathComponent("journal")
                outcome.runs += 1
                let label = "\(fault) \(after) (seed \(runSeed))"
                var worker = try WorkerProcess(
                    executable, ["iofault-worker", journal.path] + fault.arguments + [String(after), String(runSeed)],
                    dataHome: dataHome, accessGroups: Self.accessGroup,
                    environment: environment.merging(shim.environment(watching: folder)) { $1 })
                let line = worker.finish().last ?? "fail the worker printed nothing"
                progress("\(label): \(line)")
                let fields = line.split(separator: " ")
                guard fields.first == "ok", fields.count == 4, worker.terminationStatus == 0 else {
                    outcome.problems.append("\(label): \(line) (status \(worker.terminationStatus))")
                    continue
                }
                var verifier = try WorkerProcess(executable, ["powercut-verify", journal.path], dataHome: dataHome,
                                                 accessGroups: Self.accessGroup, environment: environment)
                let verdict = verifier.finish().last ?? "fail the verifier printed nothing"
                guard verdict.hasPrefix("ok"), verifier.terminationStatus == 0 else {
                    outcome.problems.append("\(label), reopened: \(verdict)")
                    continue
                }
                outcome.passed += 1
                outcome.acknowledged += Int(fields[1]) ?? 0
                outcome.failedCalls += Int(fields[2]) ?? 0
            }
        }
        return outcome
    }
}
