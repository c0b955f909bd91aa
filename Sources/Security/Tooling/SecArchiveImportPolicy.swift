/// What an archive import does with an archived item whose identity (class, primary-key
/// attributes, access group and synchronizable flag) the keychain already holds.
package enum SecArchiveImportPolicy: Sendable, Hashable, CaseIterable {
    /// Import nothing: the import fails with errSecDuplicateItem, as `SecItemAdd` does.
    case failOnDuplicate
    /// Keep the keychain's item and skip the archived one.
    case keepExisting
    /// Replace the keychain's item with the archived one.
    case replaceExisting
}
