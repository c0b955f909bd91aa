import Foundation
import Security

/// An item as keychainctl reads it back.
struct KeychainItem {
    /// `genp`, `inet`, `cert` or `keys`.
    let itemClass: String
    /// The attributes that are set, by four-character code.
    let attributes: [String: Any]
    /// The secret, when it was asked for.
    let data: Data?
    /// The persistent reference, which names this one item for an update or a delete.
    let reference: Data
}

/// The SecItem calls keychainctl makes. A failing status becomes a ``ToolFailure`` that
/// names the call, as `security` names the function that failed.
enum ItemStore {
    /// The first item a query matches, as `security` takes the first match; nil when none
    /// does.
    static func first(_ query: [String: Any], withData: Bool) throws -> KeychainItem? {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(
            query.merging(returning(withData: withData)) { _, new in new } as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        try check(status, "SecItemCopyMatching")
        guard let found = result as? [String: Any], let item = item(found, itemClass: query[kSecClass as String] as? String)
        else { throw ToolFailure.status(errSecDecode, during: "SecItemCopyMatching") }
        return item
    }

    /// The first item a query matches; none is errSecItemNotFound.
    static func existing(_ query: [String: Any], withData: Bool) throws -> KeychainItem {
        guard let item = try first(query, withData: withData) else {
            throw ToolFailure.status(errSecItemNotFound, during: "SecItemCopyMatching")
        }
        return item
    }

    /// Only the secret of the first match: what `find-*-password -w` needs, and no more.
    /// None is errSecItemNotFound.
    static func existingSecret(_ query: [String: Any]) throws -> Data {
        var result: CFTypeRef?
        try check(SecItemCopyMatching(query.merging([kSecReturnData as String: true]) { _, new in new } as CFDictionary,
                                      &result), "SecItemCopyMatching")
        guard let data = result as? Data else { throw ToolFailure.status(errSecDecode, during: "SecItemCopyMatching") }
        return data
    }

    /// Every item of a class the query matches, in insertion order; none is an empty list.
    static func all(_ query: [String: Any], withData: Bool) throws -> [KeychainItem] {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query.merging(returning(withData: withData)) { _, new in new }
            .merging([kSecMatchLimit as String: kSecMatchLimitAll]) { _, new in new } as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        try check(status, "SecItemCopyMatching")
        let found = result as? [[String: Any]] ?? []
        return try found.map { entry in
            guard let item = item(entry, itemClass: query[kSecClass as String] as? String) else {
                throw ToolFailure.status(errSecDecode, during: "SecItemCopyMatching")
            }
            return item
        }
    }

    static func add(_ attributes: [String: Any]) throws {
        try check(SecItemAdd(attributes as CFDictionary, nil), "SecItemAdd")
    }

    /// Changes this one item, whatever else the query that found it matched.
    static func update(_ item: KeychainItem, with changes: [String: Any]) throws {
        try check(SecItemUpdate([kSecValuePersistentRef as String: item.reference] as CFDictionary,
                                changes as CFDictionary), "SecItemUpdate")
    }

    /// Deletes this one item, whatever else the query that found it matched.
    static func delete(_ item: KeychainItem) throws {
        try check(SecItemDelete([kSecValuePersistentRef as String: item.reference] as CFDictionary), "SecItemDelete")
    }

    private static func returning(withData: Bool) -> [String: Any] {
        var keys: [String: Any] = [kSecReturnAttributes as String: true, kSecReturnPersistentRef as String: true]
        if withData { keys[kSecReturnData as String] = true }
        return keys
    }

    /// Splits a result dictionary into the item's attributes, data and reference.
    private static func item(_ found: [String: Any], itemClass: String?) -> KeychainItem? {
        guard let itemClass, let reference = found[kSecValuePersistentRef as String] as? Data
        else { return nil }
        var attributes = found
        attributes[kSecValuePersistentRef as String] = nil
        let data = attributes.removeValue(forKey: kSecValueData as String) as? Data
        return KeychainItem(itemClass: itemClass, attributes: attributes, data: data, reference: reference)
    }
}
