/// What an import did with each item of an archive. The three counts add up to the number
/// of items in the archive.
package struct ImportReport: Sendable, Hashable {
    /// Items added that had no counterpart in the keychain.
    package var imported = 0
    /// Items that took the place of an existing item with the same identity
    /// (``ImportPolicy/replaceExisting``).
    package var replaced = 0
    /// Items left out because an item with the same identity exists
    /// (``ImportPolicy/keepExisting``).
    package var skipped = 0

    package init(imported: Int = 0, replaced: Int = 0, skipped: Int = 0) {
        self.imported = imported
        self.replaced = replaced
        self.skipped = skipped
    }
}
