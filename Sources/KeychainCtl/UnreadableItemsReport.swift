import KeychainCore
import Security

/// How `dump-keychain` and `export-archive` end when some items failed to open: the rest
/// was shown or exported, the skipped items are listed on standard error, and the exit status
/// is errSecDecode's (93), so that a script never takes a partial backup for a whole one.
enum UnreadableItemsReport {
    /// Nothing when `skipped` is empty; otherwise the failure that lists the skipped items.
    static func check(_ skipped: [UnreadableItem], during operation: String) throws(ToolFailure) {
        guard !skipped.isEmpty else { return }
        let count = skipped.count == 1 ? "1 item" : "\(skipped.count) items"
        let lines = ["keychainctl: \(operation): \(count) could not be opened (damaged or altered; errSecDecode) and "
                     + "\(skipped.count == 1 ? "was" : "were") skipped; the other items were \(operation == "export-archive" ? "exported" : "shown"):"]
            + skipped.map { "    \($0)" }
        throw ToolFailure(message: lines.joined(separator: "\n"), exitStatus: ToolFailure.exitStatus(for: errSecDecode))
    }
}
