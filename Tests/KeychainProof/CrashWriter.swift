import Foundation
import Security
import TestSupport

/// The process that the crash run kills (issue 3, scope 2).
///
/// It rebuilds what the keychain holds from the journal, prints `ready`, optionally makes
/// one multi-item update or delete first (printing `go` just before the call, so that the
/// parent can kill it during that call), then adds, updates and deletes items of a few
/// groups, one by one and whole groups at once, until it is killed. Each call is journaled
/// as `begin` before it is made and `ok` once it returned success.
public struct CrashWriter {
    public enum FirstOperation: String, Sendable { case none, updateAll = "update-all", deleteAll = "delete-all" }

    public static let groups = ["crash.g0", "crash.g1", "crash.g2"]
    /// An attribute every item gets that no index covers: a delete naming it has to open items.
    static let description = "crash-item"

    let journal: Journal
    let groupSize: Int
    let first: FirstOperation
    var generator: SeededGenerator
    var groups: [String: [String: String]]
    var counter = 0

    public init(journal: URL, groupSize: Int, first: FirstOperation, seed: UInt64) throws {
        let model = CrashModel(lines: Journal.lines(of: journal))
        guard model.pending == nil, model.problems.isEmpty else {
            throw ProofFailure("the journal has an unresolved operation: run the verifier first")
        }
        self.journal = try Journal(appendingTo: journal)
        self.groupSize = groupSize
        self.first = first
        generator = SeededGenerator(seed: seed)
        groups = model.groups
    }

    public mutating func run() {
        journal.append("start", String(getpid()))
        let target = Self.groups[0]
        if first != .none {
            // A full group first, so that the multi-item call has many items to change.
            while groups[target, default: [:]].count < groupSize, let account = absentAccount(in: target) {
                perform(.add(group: target, account: account, token: token()))
            }
        }
        printNow("ready")
        switch first {
        case .none: break
        case .updateAll: perform(.updateAll(group: target, token: token()), announce: true)
        case .deleteAll: perform(.deleteAll(group: target, opening: Bool.random(using: &generator)), announce: true)
        }
        // The parent kills the writer; the limit only spares an orphan if the parent died.
        let limit = Date(timeIntervalSinceNow: 120)
        while Date() < limit {
            perform(nextOperation())
        }
    }

    mutating func nextOperation() -> CrashOperation {
        let group = Self.groups[Int.random(in: 0..<Self.groups.count, using: &generator)]
        let present = Array(groups[group, default: [:]].keys)
        let roll = Int.random(in: 0..<100, using: &generator)
        if let account = present.randomElement(using: &generator) {
            switch roll {
            case 45..<70: return .update(group: group, account: account, token: token())
            case 70..<82: return .delete(group: group, account: account)
            case 82..<95: return .updateAll(group: group, token: token())
            case 95..<100: return .deleteAll(group: group, opening: Bool.random(using: &generator))
            default: break
            }
        }
        if let account = absentAccount(in: group) { return .add(group: group, account: account, token: token()) }
        return .updateAll(group: group, token: token())
    }

    mutating func absentAccount(in group: String) -> String? {
        let items = groups[group, default: [:]]
        guard items.count < groupSize else { return nil }
        let start = Int.random(in: 0..<groupSize, using: &generator)
        let size = groupSize
        return (0..<size).map { "a\((start + $0) % size)" }.first { items[$0] == nil }
    }

    mutating func token() -> String {
        counter += 1
        return "\(getpid()).\(counter).\(String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 36))"
    }

    mutating func perform(_ operation: CrashOperation, announce: Bool = false) {
        let id = "\(getpid()).\(counter).\(operation.kind)"
        counter += 1
        journal.append(["begin", id] + operation.fields)
        if announce { printNow("go") }
        let status = Self.call(operation)
        if status == errSecSuccess {
            journal.append("ok", id)
            operation.apply(to: &groups)
        } else {
            journal.append("fail", id, String(status))
            // The model no longer knows the keychain: stop, and let the verifier report it.
            exit(3)
        }
    }

    /// Makes the call `operation` describes; its status.
    static func call(_ operation: CrashOperation) -> OSStatus {
        switch operation {
        case .add(let group, let account, let token):
            return ProofItems.add(service: group, account: account, token: token,
                                  extra: [kSecAttrDescription as String: description])
        case .update(let group, let account, let token):
            return ProofItems.update(ProofItems.query(service: group, account: account), token: token)
        case .delete(let group, let account):
            return SecItemDelete(ProofItems.query(service: group, account: account) as CFDictionary)
        case .updateAll(let group, let token):
            return ProofItems.update(ProofItems.query(service: group), token: token)
        case .deleteAll(let group, let opening):
            var query = ProofItems.query(service: group)
            if opening { query[kSecAttrDescription as String] = description }
            return SecItemDelete(query as CFDictionary)
        case .settings, .password, .relock, .importArchive:
            return ProofKeychain.perform(operation)
        }
    }
}
