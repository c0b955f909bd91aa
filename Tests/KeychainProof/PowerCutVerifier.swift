import Foundation
import Security

/// Run in a fresh process on the folder a power cut left (nothing unlocked, as after a
/// reboot): the keychain must open; its password and settings must be those of the
/// acknowledged changes, or of the one under way applied whole; and its items must pass
/// ``CrashVerifier``'s checks (every acknowledged change, all or nothing of the pending
/// one, no half-written item, each add that failed during an I/O fault whole or absent, SQLite's integrity check, a write accepted).
///
/// Prints one line: `ok ITEMS KIND OUTCOME` or `fail REASON`.
public enum PowerCutVerifier {
    public static func run(journal url: URL, database: URL) -> (passed: Bool, line: String) {
        let model = CrashModel(lines: Journal.lines(of: url))
        if let problem = model.problems.first { return (false, "fail \(problem)") }
        do {
            _ = try ProofKeychain.store()
        } catch {
            return (false, "fail the keychain does not open: \(error.status) \(error)")
        }
        let acknowledged = model.keychain, ifApplied = model.keychainIfPendingApplied
        // Changes that failed during an injected I/O fault may each be there whole, or not.
        var candidates = [acknowledged, ifApplied]
        for (operation, _) in model.uncertain {
            candidates += candidates.map { candidate in
                var candidate = candidate
                operation.apply(to: &candidate)
                return candidate
            }
        }
        guard let found = ProofKeychain.identify(among: candidates) else {
            let password = acknowledged.password == nil ? "none" : "a password"
            return (false, "fail the keychain has neither the acknowledged password (\(password)) and settings nor "
                        + "those of the change under way (\(model.pending?.operation.kind ?? "none"))")
        }
        let items = CrashVerifier.run(journal: url, database: database)
        guard items.passed else { return items }
        guard acknowledged != ifApplied, let pending = model.pending else { return items }
        // A change of the keychain itself shows in its password and settings, not its items.
        return (true, "ok \(items.line.split(separator: " ").map(String.init)[safe: 1] ?? "?") \(pending.operation.kind) "
                    + (found == ifApplied ? "applied" : "absent"))
    }
}
