import Foundation
import Security

/// The process of the I/O-fault suite, loaded with the shim: it makes some changes that
/// must survive (as ``PowerCutWriter`` does), arms a fault at the `after`th write or sync
/// from then on, and makes calls — adds of new items, settings and password changes —
/// until three calls have met the fault.
///
/// Each call made while the fault lasts must fail with ``IOFault/expectedStatus``; it is
/// journaled `fault ID STATUS` (whole or not at all, but which is unknown). A call that
/// began before the fault may succeed (it is acknowledged) or fail as the others. Then
/// the fault ends, and the same process checks the keychain with ``PowerCutVerifier``:
/// nothing acknowledged lost, nothing half applied, integrity, and a later add and find.
public struct IOFaultWorker {
    var writer: PowerCutWriter
    let journal: URL
    let fault: IOFault
    /// Calls to make before giving up on the fault's beginning.
    static let maximumCalls = 60

    public init(journal: URL, fault: IOFault, seed: UInt64) throws {
        writer = try PowerCutWriter(journal: journal, seed: seed)
        self.journal = journal
        self.fault = fault
    }

    public mutating func run(after: Int) -> (passed: Bool, line: String) {
        guard PowerCutControl.isLoaded else { return (false, "fail the shim is not loaded") }
        writer.run(operations: 6)
        guard PowerCutControl.armFault(fault.kind.rawValue, onSyncs: fault.onSyncs, after: after) else {
            return (false, "fail the shim does not know the fault \(fault)")
        }
        var problems: [String] = []
        var acknowledged = 0, during = 0
        for index in 0..<Self.maximumCalls where during < 3 {
            let started = PowerCutControl.faultIsActive
            let operation: CrashOperation = switch index % 4 {
            case 1: .settings(lockInterval: UInt32(600 + index))
            case 3: .password(old: writer.keychain.password, new: "pw-fault-\(index)")
            default: .add(group: CrashWriter.groups[1], account: "f\(index)", token: "fault.\(getpid()).\(index)")
            }
            let id = "\(getpid()).fault.\(index).\(operation.kind)"
            writer.writer.journal.append(["begin", id] + operation.fields)
            let status = CrashWriter.call(operation)
            if status == errSecSuccess && !started {
                writer.writer.journal.append("ok", id)
                operation.apply(to: &writer.writer.groups)
                operation.apply(to: &writer.keychain)
                acknowledged += 1
                continue
            }
            writer.writer.journal.append("fault", id, String(status))
            if status == errSecSuccess {
                problems.append("\(operation.kind) succeeded during the fault")
            } else if !PowerCutControl.faultIsActive {
                problems.append("\(operation.kind) failed with \(status) before the fault")
            } else if status != fault.expectedStatus {
                problems.append("\(operation.kind) gave \(status) during \(fault), not \(fault.expectedStatus)")
            }
            if PowerCutControl.faultIsActive { during += 1 }
        }
        let hits = PowerCutControl.endFault()
        if during == 0 {
            problems.append("the fault never began in \(Self.maximumCalls) calls: no \(fault.onSyncs ? "sync" : "write") reached the disk")
        }
        if let problem = problems.first { return (false, "fail \(problem)") }
        let database = KeychainEnvironment.current.directory.appendingPathComponent("login.keychain-db")
        let check = PowerCutVerifier.run(journal: journal, database: database)
        guard check.passed else { return (false, "fail after the fault: \(check.line.dropFirst(5))") }
        return (true, "ok \(acknowledged) \(during) \(hits)")
    }
}
