import Foundation
import Security

/// Run in a fresh process after each kill: the keychain must open, hold every acknowledged
/// change and either all or none of the one that was under way, hold no half-written item,
/// pass SQLite's integrity check, and accept a write.
///
/// It records in the journal whether the pending operation was applied, so that the next
/// writer and verifier know the state. Prints one line: `ok ...` or `fail REASON`.
public enum CrashVerifier {
    public static func run(journal url: URL, database: URL) -> (passed: Bool, line: String) {
        let model = CrashModel(lines: Journal.lines(of: url))
        if let problem = model.problems.first { return (false, "fail \(problem)") }
        var observed: [String: [String: String]] = [:]
        for group in CrashWriter.groups {
            let stored = ProofItems.readAll(service: group)
            guard stored.status == errSecSuccess else {
                return (false, "fail reading \(group) gave \(stored.status)")
            }
            for (account, item) in stored.items {
                guard item.isWhole, let token = item.secret else {
                    return (false, "fail \(group)/\(account) is half written")
                }
                observed[group, default: [:]][account] = token
            }
        }
        // Adds that failed during an injected I/O fault: each whole or not at all.
        for (operation, _) in model.uncertain {
            if case .add(let group, let account, let token) = operation, observed[group]?[account] == token {
                observed[group]?[account] = nil
            }
        }
        let expected = model.groups.filter { !$0.value.isEmpty }
        let ifApplied = model.groupsIfPendingApplied.filter { !$0.value.isEmpty }
        observed = observed.filter { !$0.value.isEmpty }
        var outcome = "none"
        if let pending = model.pending {
            if observed == ifApplied {
                outcome = "applied"
            } else if observed == expected {
                outcome = "absent"
            } else {
                return (false, "fail after a kill during \(pending.operation.kind): \(difference(observed, expected))")
            }
            (try? Journal(appendingTo: url))?.append("resolved", pending.id, outcome)
        } else if observed != expected {
            return (false, "fail \(difference(observed, expected))")
        }
        let integrity = IntegrityCheck.run(database: database)
        guard integrity == "ok" else { return (false, "fail integrity check: \(integrity)") }
        // It accepts writes: an add, a read and a delete of an item of its own.
        let probe = "probe-\(getpid())"
        let added = ProofItems.add(service: "crash.probe", account: probe, token: probe)
        let read = ProofItems.read(service: "crash.probe", account: probe)
        let deleted = SecItemDelete(ProofItems.query(service: "crash.probe", account: probe) as CFDictionary)
        guard added == errSecSuccess, read.token == probe, deleted == errSecSuccess else {
            return (false, "fail the keychain does not accept writes: add \(added), read \(read.status), delete \(deleted)")
        }
        let items = observed.values.reduce(0) { $0 + $1.count }
        return (true, "ok \(items) \(model.pending?.operation.kind ?? "-") \(outcome)")
    }

    static func difference(_ observed: [String: [String: String]], _ expected: [String: [String: String]]) -> String {
        var missing = 0, extra = 0, wrong = 0
        var names: [String] = []
        for group in Set(observed.keys).union(expected.keys).sorted() {
            let seen = observed[group] ?? [:], want = expected[group] ?? [:]
            for (account, token) in want.sorted(by: { $0.key < $1.key }) {
                if let other = seen[account] {
                    if other != token { wrong += 1; names.append("\(group)/\(account) other") }
                } else {
                    missing += 1
                    names.append("\(group)/\(account) missing")
                }
            }
            for account in seen.keys.sorted() where want[account] == nil {
                extra += 1
                names.append("\(group)/\(account) extra")
            }
        }
        // The accounts, not their tokens: enough to find the change in the journal.
        return "\(missing) acknowledged items missing, \(wrong) with other data, \(extra) not acknowledged"
            + (names.isEmpty ? "" : " (\(names.prefix(6).joined(separator: ", ")))")
    }
}
