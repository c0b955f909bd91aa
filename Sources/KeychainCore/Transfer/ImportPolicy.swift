/// What an import does with an archived item when the keychain already holds an item with
/// the same identity: the same class, primary-key attributes, access group and
/// synchronizable flag.
///
/// A command-line import should default to ``failOnDuplicate``: it is the only policy that
/// neither drops the archive's version of an item nor overwrites a newer local one without
/// being asked, and it changes nothing, so the user can choose again. Restoring into a new
/// keychain, the common case, never meets a duplicate.
package enum ImportPolicy: Sendable, Hashable, CaseIterable {
    /// Keep the existing item as it is and skip the archived one.
    case keepExisting
    /// Delete the existing item and import the archived one in its place: none of the old
    /// item's attributes, data or persistent reference survive.
    case replaceExisting
    /// Import nothing: the import fails with errSecDuplicateItem (like `SecItemAdd`).
    case failOnDuplicate
}
