/// What an archive import did with each archived item; the three counts add up to the
/// number of items in the archive.
package struct SecArchiveImportCounts: Sendable, Hashable {
    /// Items added that had no counterpart in the keychain.
    package let imported: Int
    /// Items that took the place of an item with the same identity.
    package let replaced: Int
    /// Items left out because the keychain holds one with the same identity.
    package let skipped: Int
}
