import Foundation

/// A generic password as the Secret Service shows it: no secret, only what its properties and
/// searches need.
struct StoredItem: Sendable {
    /// The keychain's persistent reference, which names the item's object path.
    let reference: Data
    let attributes: ItemAttributes
    /// The content type of its secret (``ItemGenericData``).
    let contentType: String
    /// Whether its `kSecAttrGeneric` is the provider's (or empty), which the provider may
    /// rewrite; not when another program keeps its own data there.
    let genericDataIsOurs: Bool
    let label: String
    let created: Date?
    let modified: Date?
}
