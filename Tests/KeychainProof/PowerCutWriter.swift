import Foundation
import Synchronization
import Security
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
        // A new process of a keychain with a password starts locked, as an app after a reboot.
        if keychain.password != nil, ProofKeychain.perform(.relock(password: keychain.password)) != errSecSuccess {
            printNow("fail the keychain does not unlock with the acknowledged password")
            exit(3)
        }
        for number in 0..<operations {
            let operation = nextOperation(number: number)
            // Exits when a call fails: the model would no longer know the keychain.
            writer.perform(operation)
            operation.apply(to: &keychain)
        }
    }

    /// Adds `each` new items on each of `threads` threads at once, so that their commits meet
    /// (the store may commit them together): each is acknowledged by its own `ok` once its
    /// call returned, and must then be durable.
    public mutating func addConcurrently(threads: Int, each: Int) {
        let journal = writer.journal
        let group = CrashWriter.groups[0]
        let adds: [[CrashOperation]] = (0..<threads).map { thread in
            (0..<each).map { index in .add(group: group, account: "c\(thread).\(index)", token: writer.token()) }
        }
        let failed = Mutex(false)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for (index, operation) in adds[thread].enumerated() {
                let id = "\(getpid()).c\(thread).\(index)"
                journal.append(["concurrent", id] + operation.fields)
                let status = CrashWriter.call(operation)
                if status == errSecSuccess { journal.append("ok", id) } else { failed.withLock { $0 = true } }
            }
        }
        if failed.withLock({ $0 }) {
            printNow("fail a concurrent add failed")
            exit(3)
        }
        for operation in adds.joined() { operation.apply(to: &writer.groups) }
    }

    /// The kinds a short run must cover, in this order, between item changes: a password set
    /// or changed, an import, new settings, a password removed (or set), a lock and unlock.
    enum Kind { case item, password, removal, importArchive, settings, relock }
    static let tour: [Kind] = [.password, .item, .importArchive, .item, .settings, .item, .removal, .relock]

    mutating func nextOperation(number: Int) -> CrashOperation {
        let kind: Kind
        if number < Self.tour.count {
            kind = Self.tour[number]
        } else {
            kind = switch Int.random(in: 0..<100, using: &generator) {
            case 0..<8: .settings
            case 8..<16: .password
            case 16..<20: .removal
            case 20..<26: .relock
            case 26..<34: .importArchive
            default: .item
            }
        }
        switch kind {
        case .item:
            return writer.nextOperation()
        case .settings:
            return .settings(lockInterval: [nil, 3_600, 7_200, 86_400].randomElement(using: &generator) ?? nil)
        case .password, .removal:
            let new = kind == .removal && keychain.password != nil
                ? nil : "pw-\(String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 36))"
            return .password(old: keychain.password, new: new)
        case .relock:
            return .relock(password: keychain.password)
        case .importArchive:
            return .importArchive(group: ProofArchive.group)
        }
    }
}
