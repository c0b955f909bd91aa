import Foundation
import Security

// Listing a keychain's items.
extension Keychain {
    /// The keys of this keychain's items, in the order the items were added.
    ///
    /// Covers items whose synchronizable flag is this keychain's option.
    ///
    /// - Throws: ``KeychainError``; `errSecDecode` if an item's account is data that is not
    ///   UTF-8 text.
    public func allKeys() throws(KeychainError) -> [String] {
        try listedAttributes().map { entry throws(KeychainError) in try Self.requireKey(of: entry) }
    }

    /// This keychain's items with their secrets and attributes, in the order they were added.
    ///
    /// Covers items whose synchronizable flag is this keychain's option. An item deleted by
    /// another writer while the list is read is left out.
    ///
    /// - Throws: ``KeychainError``, for example `errSecInteractionNotAllowed` if one of the
    ///   secrets cannot be read now.
    public func allItems() throws(KeychainError) -> [KeychainItem] {
        var items: [KeychainItem] = []
        let query = try baseQuery(synchronizable: .configured)
        for entry in try Self.listAttributes(matching: query, withPersistentReferences: true) {
            let key = try Self.requireKey(of: entry)
            // Secrets are read one at a time by persistent reference: Apple's file-based
            // keychain on macOS refuses kSecReturnData with kSecMatchLimitAll.
            guard let data = try Self.secret(of: entry, itemClass: itemClass, in: query) else { continue }
            var attributes: [String: AttributeValue] = [:]
            for (name, value) in entry where name.utf8.count == 4 {
                attributes[name] = AttributeValue(dictionaryValue: value)
            }
            items.append(KeychainItem(key: key, data: data, attributes: attributes))
        }
        return items
    }

    /// The attribute dictionaries of every item, in insertion order, as a search for all
    /// items returns them.
    func listedAttributes() throws(KeychainError) -> [[String: Any]] {
        try Self.listAttributes(matching: try baseQuery(synchronizable: .configured), withPersistentReferences: false)
    }

    static func listAttributes(matching query: [String: Any], withPersistentReferences: Bool) throws(KeychainError) -> [[String: Any]] {
        var query = query
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        query[kSecReturnAttributes as String] = true
        if withPersistentReferences { query[kSecReturnPersistentRef as String] = true }
        switch try SecItemCalls.copyMatching(query, during: "listing items") {
        case .notFound:
            return []
        case .found(let result):
            guard let entries = result as? [[String: Any]] else {
                throw KeychainError(status: errSecDecode, reason: "the keychain returned a list of another shape")
            }
            return entries
        }
    }

    /// The secret of a listed item, read by its persistent reference in the keychain the
    /// listing query went to; nil if it is gone.
    static func secret(of entry: [String: Any], itemClass: CFString, in listingQuery: [String: Any]) throws(KeychainError) -> Data? {
        guard let reference = entry[kSecValuePersistentRef as String] as? Data else {
            throw KeychainError(status: errSecDecode, reason: "the keychain returned an item without a persistent reference")
        }
        var query = Platform.target(of: listingQuery)
        query[kSecClass as String] = itemClass
        query[kSecValuePersistentRef as String] = reference
        return try SecItemCalls.data(of: query, during: "reading a listed item")
    }

    static func requireKey(of entry: [String: Any]) throws(KeychainError) -> String {
        guard let key = key(ofAttributes: entry) else {
            throw KeychainError(status: errSecDecode, reason: "an item's account is not text")
        }
        return key
    }
}
