import Foundation
import TestSupport

/// The process whose power is cut (the power-loss suite): from the state its journal
/// records, it makes a fixed number of changes drawn from its seed — item adds, updates
/// and deletes of one item and of whole groups (as ``CrashWriter`` does), auto-lock
/// settings, password set, change and removal, a lock and unlock, and archive imports —
/// each journaled as `begin` before the call and `ok` once it returned success.
///
/// The worker command then prints `done SYNC-POINTS` (the shim's count, -1 without it) and,
/// as the process of a long-running app would, waits to be killed.
public struct PowerCutWriter {
    var writer: CrashWriter
    var keychain: ProofKeychainState
    var generator: SeededGenerator

    public init(journal: URL, seed: UInt64) throws {
        writer = try CrashWriter(journal: journal, groupSize: 10, first: .none, seed: seed)
        keychain = CrashModel(lines: Journal.lines(of: journal)).keychain
        generator = SeededGenerator(seed: seed ^ 0x5eed)
    }

    public mutating func run(operations: Int) {
        writer.journal.append("start", String(getpid()))
        for _ in 0..<operations {
            let operation = nextOperation()
            // Exits when a call fails: the model would no longer know the keychain.
            writer.perform(operation)
            operation.apply(to: &keychain)
        }
    }

    mutating func nextOperation() -> CrashOperation {
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<8:
            return .settings(lockInterval: [nil, 3_600, 7_200, 86_400].randomElement(using: &generator) ?? nil)
        case 8..<20:
            let new = keychain.password != nil && Bool.random(using: &generator) && Bool.random(using: &generator)
                ? nil : "pw-\(String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 36))"
            return .password(old: keychain.password, new: new)
        case 20..<26:
            return .relock(password: keychain.password)
        case 26..<34:
            return .importArchive(group: ProofArchive.group)
        default:
            return writer.nextOperation()
        }
    }
}
