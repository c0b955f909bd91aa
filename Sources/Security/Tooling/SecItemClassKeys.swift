@_implementationOnly import KeychainCore

/// The attributes that identify an item of a class, for this package's tools.
package enum SecItemClassKeys {
    /// The primary-key attributes of `itemClass` (a `kSecClass` value), by their
    /// `kSecAttr` keys, as the keychain itself defines them; empty for an unknown class.
    package static func primaryKey(of itemClass: String) -> Set<String> {
        Set(ItemClass(rawValue: itemClass)?.schema.primaryKey.map(\.code) ?? [])
    }
}
