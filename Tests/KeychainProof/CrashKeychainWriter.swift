import Foundation
import Security
import TestSupport

/// The process that the keychain crash run kills during keychain-level changes: it sets,
/// changes and removes the default keychain's password (`password` mode), or creates
/// keychains with passwords (`create` mode), one after the other until killed, each call
/// journaled as `begin` before it is made and `ok` once it returned success (and `ok`
/// printed, for a parent that waits for one before it kills). Another
/// process adds, updates and deletes items in the default keychain meanwhile (``CrashWriter``).
public struct CrashKeychainWriter {
    public enum Mode: String, Sendable { case password, create }

    let journal: Journal
    let mode: Mode
    var generator: SeededGenerator
    var password: String?
    var counter = 0

    public init(journal: URL, mode: Mode, seed: UInt64) throws {
        let model = CrashKeychainModel(lines: Journal.lines(of: journal))
        guard model.pending == nil, model.problems.isEmpty else {
            throw ProofFailure("the journal has an unresolved operation: run the verifier first")
        }
        self.journal = try Journal(appendingTo: journal)
        self.mode = mode
        generator = SeededGenerator(seed: seed)
        password = model.password
    }

    public mutating func run() {
        journal.append("start", String(getpid()))
        printNow("ready")
        // The parent kills the writer; the limit only spares an orphan if the parent died.
        let limit = Date(timeIntervalSinceNow: 120)
        while Date() < limit {
            perform(nextOperation())
        }
    }

    mutating func nextOperation() -> CrashKeychainOperation {
        counter += 1
        let fresh = "pw-\(getpid())-\(counter)-\(String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 36))"
        switch mode {
        case .create:
            return .create(name: "made-\(getpid())-\(counter)", password: fresh)
        case .password:
            guard let password else { return .password(old: nil, new: fresh) }
            return Int.random(in: 0..<10, using: &generator) < 7 ? .password(old: password, new: fresh)
                : .password(old: password, new: nil)
        }
    }

    mutating func perform(_ operation: CrashKeychainOperation) {
        let id = "\(getpid()).\(counter).\(operation.kind)"
        journal.append(["begin", id] + operation.fields)
        let status: OSStatus
        switch operation {
        case .password(let old, let new):
            let oldBytes = Array((old ?? "").utf8), newBytes = Array((new ?? "").utf8)
            status = SecKeychainChangePassword(nil, UInt32(oldBytes.count), oldBytes, UInt32(newBytes.count), newBytes)
            if status == errSecSuccess { password = new }
        case .create(let name, let password):
            let bytes = Array(password.utf8)
            var keychain: SecKeychain?
            status = SecKeychainCreate(name, UInt32(bytes.count), bytes, false, nil, &keychain)
        }
        if status == errSecSuccess {
            journal.append("ok", id)
            printNow("ok")
        } else {
            journal.append("fail", id, String(status))
            exit(3)
        }
    }
}
