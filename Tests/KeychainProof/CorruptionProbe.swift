import Foundation
import GRDB
import Security

/// The worker side of the corruption run: making the keychain to damage, and reading a
/// damaged copy in a fresh process, as the next program to open it would.
public enum CorruptionProbe {
    public static let service = "tamper"
    public static func secret(of account: String) -> String { "secret-of-\(account)" }
    public static func accounts(count: Int) -> [String] {
        (0..<count).map { $0 < count / 2 ? "base\($0)" : "recent\($0)" }
    }

    /// Adds the items: the first half is checkpointed into the database file, the second
    /// half stays in the WAL, so that damage to either file has items to lose.
    public static func setUp(count: Int, database: URL) -> Bool {
        let accounts = accounts(count: count)
        for (index, account) in accounts.enumerated() {
            if index == count / 2 {
                guard checkpoint(database) else { return false }
            }
            guard ProofItems.add(service: service, account: account, token: secret(of: account)) == errSecSuccess else {
                return false
            }
        }
        // The caller exits without closing the store: the WAL stays.
        return true
    }

    static func checkpoint(_ database: URL) -> Bool {
        do {
            let queue = try DatabaseQueue(path: database.path)
            try queue.writeWithoutTransaction { _ = try $0.checkpoint(.truncate) }
            try queue.close()
            return true
        } catch {
            return false
        }
    }

    /// Reads every item and tries a write; prints `ACCOUNT STATUS own|other|none` per item
    /// and `add STATUS`.
    public static func probe(count: Int) {
        for account in accounts(count: count) {
            let found = ProofItems.read(service: service, account: account)
            let match = found.token.map { $0 == secret(of: account) ? "own" : "other" } ?? "none"
            printNow("\(account) \(found.status) \(match)")
        }
        let added = ProofItems.add(service: service, account: "new-\(getpid())", token: "new")
        printNow("add \(added)")
    }
}
