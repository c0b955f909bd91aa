import Foundation
import Security

/// The four `SecItem` functions with statuses turned into ``KeychainError``s.
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
}
