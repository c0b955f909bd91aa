import Security

/// How `dump-keychain` and `export-archive` end when some items failed to open: the rest
/// was shown or exported, the skipped items are listed on standard error, and the exit status
/// is errSecDecode's (93), so that a script never takes a partial backup for a whole one.
enum UnreadableItemsReport {
    /// Nothing when `skipped` is empty; otherwise the failure that lists the skipped items.
    /// `outcome` says what became of the others: "shown", "exported".
    static func check(_ skipped: [SecUnreadableItem], during operation: String, othersWere outcome: String)
        throws(ToolFailure)
    {
        guard !skipped.isEmpty else { return }
        let (count, verb) = skipped.count == 1 ? ("1 item", "was") : ("\(skipped.count) items", "were")
        let heading = "keychainctl: \(operation): \(count) could not be opened (damaged or altered; errSecDecode) and "
            + "\(verb) skipped; the other items were \(outcome):"
        throw ToolFailure(message: ([heading] + skipped.map { "    \($0)" }).joined(separator: "\n"),
                          exitStatus: ExitStatus.code(for: errSecDecode))
    }
}
