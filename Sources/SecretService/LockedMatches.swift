/// What a search showed of items of a locked keychain: the attribute pairs SearchItems found
/// each of them by, without opening it. The keychain seals every attribute and the label, so
/// while it is locked these pairs are all an item's object can show of it (its `Attributes`;
/// its `Label` is empty): a client listing locked items (`secret-tool search --all`) can then
/// tell them apart and unlock the one it wants. Kept in memory only, for as long as the
/// provider runs, and at most ``limit`` items (past it, the oldest findings are forgotten).
struct LockedMatches {
    static let limit = 10_000
    private var pairs: [String: [String: String]] = [:]

    /// Notes that each item at `paths` has every pair of `query`.
    mutating func found(_ paths: [String], by query: ItemAttributes) {
        guard !paths.isEmpty else { return }
        if pairs.count + paths.count > Self.limit { pairs.removeAll() }
        for path in paths.prefix(Self.limit) {
            var known = pairs[path, default: [:]]
            known.merge(query.values) { _, new in new }
            // No more pairs than an item may have: those of the latest search win.
            pairs[path] = known.count <= Limits.attributeCount ? known : query.values
        }
    }

    /// The pairs known of the item at `path`; empty when no search found it while locked.
    func known(_ path: String) -> [String: String] { pairs[path] ?? [:] }
}
