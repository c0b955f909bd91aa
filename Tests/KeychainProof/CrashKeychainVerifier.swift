import Foundation
import Security

/// Run in a fresh process after each kill of the keychain crash run: the default keychain
/// must open with exactly one password, the acknowledged one or the one of the change in
/// flight (never neither: a mix of old and new); every keychain whose creation was
/// acknowledged must open with its password and not without; one whose creation was under
/// way must be absent or opened the same way; and the items another process was writing
/// meanwhile are checked as after any crash (``CrashVerifier``).
///
/// It records in the journal whether the pending change was applied. Prints one line:
/// `ok ITEMS KIND applied|absent|none` or `fail REASON`.
public enum CrashKeychainVerifier {
    public static func run(journal url: URL, itemJournal: URL, database: URL) -> (passed: Bool, line: String) {
        let model = CrashKeychainModel(lines: Journal.lines(of: url))
        if let problem = model.problems.first { return (false, "fail \(problem)") }
        var outcome = "none"

        // The default keychain's password: the acknowledged one, or the one in flight.
        var candidates: [(password: String?, applied: Bool)] = [(model.password, false)]
        if case .password(_, let new)? = model.pending?.operation { candidates.append((new, true)) }
        _ = SecKeychainLock(nil)
        let opening = candidates.filter { unlock(nil, $0.password) == errSecSuccess }
        _ = SecKeychainLock(nil)
        guard opening.count == 1, let found = opening.first else {
            let tried = candidates.map { $0.password == nil ? "none" : "the \($0.applied ? "new" : "old") one" }
            return (false, "fail the keychain opens with \(opening.count) of its passwords (\(tried.joined(separator: ", ")))")
        }
        if found.password != nil {
            let without = unlock(nil, nil)
            _ = SecKeychainLock(nil)
            if without == errSecSuccess { return (false, "fail the keychain has a password and opens without one too") }
        }
        if case .password? = model.pending?.operation { outcome = found.applied ? "applied" : "absent" }

        for (name, password) in model.created.sorted(by: { $0.key < $1.key }) {
            let state = createdState(name, password: password)
            guard state == "opens" else { return (false, "fail the acknowledged keychain \(name) \(state)") }
        }
        if case .create(let name, let password)? = model.pending?.operation {
            let state = createdState(name, password: password)
            switch state {
            case "opens": outcome = "applied"
            case "absent": outcome = "absent"
            default: return (false, "fail after a kill during its creation, keychain \(name) \(state)")
            }
        }
        if let pending = model.pending { (try? Journal(appendingTo: url))?.append("resolved", pending.id, outcome) }

        // The items, with the keychain unlocked as the item writer had it.
        guard unlock(nil, found.password) == errSecSuccess else { return (false, "fail the keychain did not unlock again") }
        let items = CrashVerifier.run(journal: itemJournal, database: database)
        guard items.passed else { return (false, "\(items.line) (items)") }
        let count = items.line.split(separator: " ").dropFirst().first ?? "?"
        return (true, "ok \(count) \(model.pending?.operation.kind ?? "-") \(outcome)")
    }

    /// A keychain made with `password`: `opens` (with it, and not without), `absent`, or what
    /// is wrong with it. It is left locked.
    static func createdState(_ name: String, password: String) -> String {
        var keychain: SecKeychain?
        _ = SecKeychainOpen(name, &keychain)
        let locked = SecKeychainLock(keychain)
        if locked == errSecNoSuchKeychain { return "absent" }
        guard locked == errSecSuccess else { return "does not open (\(locked))" }
        defer { _ = SecKeychainLock(keychain) }
        let without = unlock(keychain, nil)
        if without == errSecSuccess { return "opens without its password" }
        let with = unlock(keychain, password)
        return with == errSecSuccess ? "opens" : "does not open with its password (\(with))"
    }

    static func unlock(_ keychain: SecKeychain?, _ password: String?) -> OSStatus {
        let bytes = Array((password ?? "").utf8)
        return SecKeychainUnlock(keychain, UInt32(bytes.count), bytes, true)
    }
}
