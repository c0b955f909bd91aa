import Foundation
import Security

/// The four `SecItem` functions with statuses turned into ``KeychainError``s, and the one
/// save built on them (``upsert(_:changes:newItem:during:)``).
enum SecItemCalls {
    /// What a search found.
    enum SearchResult {
        case notFound
        /// The result object; nil when the query asked for nothing back.
        case found(CFTypeRef?)
    }

    static func copyMatching(_ query: [String: Any], during operation: String) throws(KeychainError) -> SearchResult {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess: return .found(result)
        case errSecItemNotFound: return .notFound
        default: throw KeychainError(status: status, reason: "\(operation) failed")
        }
    }

    /// The secret of the one item a query names (it gets kSecReturnData and
    /// kSecMatchLimitOne added); nil when there is none.
    static func data(of query: [String: Any], during operation: String) throws(KeychainError) -> Data? {
        var query = query
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        switch try copyMatching(query, during: operation) {
        case .notFound:
            return nil
        case .found(let result):
            guard let data = result as? Data else {
                throw KeychainError(status: errSecDecode, reason: "the keychain returned no data for the item")
            }
            return data
        }
    }

    /// Adds an item; returns false when an item with the same identity exists.
    static func add(_ attributes: [String: Any], during operation: String) throws(KeychainError) -> Bool {
        let status = SecItemAdd(attributes as CFDictionary, nil)
        switch status {
        case errSecSuccess: return true
        case errSecDuplicateItem: return false
        default: throw KeychainError(status: status, reason: "\(operation) failed")
        }
    }

    /// Updates the matching items; returns false when there are none.
    static func update(_ query: [String: Any], _ changes: [String: Any], during operation: String) throws(KeychainError) -> Bool {
        let status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
        switch status {
        case errSecSuccess: return true
        case errSecItemNotFound: return false
        default: throw KeychainError(status: status, reason: "\(operation) failed")
        }
    }

    /// Deletes the matching items; returns false when there were none.
    static func delete(_ query: [String: Any], during operation: String) throws(KeychainError) -> Bool {
        let status = SecItemDelete(query as CFDictionary)
        switch status {
        case errSecSuccess: return true
        case errSecItemNotFound: return false
        default: throw KeychainError(status: status, reason: "\(operation) failed")
        }
    }

    /// Updates the item `identity` names with `changes`, else adds `newItem` (by default
    /// `identity` with `changes`): the save of ``Keychain``, ``PasswordManager`` and
    /// ``KeychainItemWrapper``.
    ///
    /// It never deletes first, so readers never see the item missing. Each round can lose a
    /// race (the item added, or deleted, by another writer between the two calls); a few
    /// rounds make the save succeed unless other writers keep adding and deleting the item.
    ///
    /// - Throws: ``KeychainError``; `errSecDuplicateItem` when every add found an item with
    ///   `newItem`'s identity that `identity` does not match (another writer's, or an item
    ///   that shares the primary key but not the other attributes of `identity`).
    static func upsert(
        _ identity: [String: Any], changes: [String: Any], newItem: [String: Any]? = nil, during operation: String
    ) throws(KeychainError) {
        let newItem = newItem ?? identity.merging(changes) { _, written in written }
        for _ in 0..<3 {
            if try update(identity, changes, during: operation) { return }
            if try add(newItem, during: operation) { return }
        }
        throw KeychainError(.duplicateItem, reason: "\(operation) kept finding another item with the same identity")
    }
}
