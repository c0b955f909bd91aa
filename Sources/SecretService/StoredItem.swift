import Foundation

/// A generic password as the Secret Service shows it: no secret, only what its properties and
/// searches need.
struct StoredItem: Sendable {
    /// The keychain's persistent reference, which names the item's object path.
    let reference: Data
    let attributes: ItemAttributes
    let label: String
    let created: Date?
    let modified: Date?

    var object: SecretObject { .item(reference: reference) }
}
