import Foundation
import Security

// Saving and removing items.
extension Keychain {
    /// Stores a value under a key, replacing any value there.
    ///
    /// The save is an upsert: it updates the item if it exists and adds it otherwise, never
    /// deleting first, so readers never see the item missing. If another writer adds the
    /// same item between the two steps, the save updates that item instead. The item is
    /// written with this keychain's ``options``.
    ///
    /// - Parameters:
    ///   - value: A String, Data, Bool or number (see ``KeychainValue`` for the formats).
    ///   - key: The key (the item's account).
    /// - Throws: ``KeychainError``.
    public func set(_ value: some KeychainValue, forKey key: String) throws(KeychainError) {
        try save(try value.keychainData(), forKey: key)
    }

    /// Stores any `Encodable` value under a key, as JSON, replacing any value there.
    /// Read it with ``decode(_:forKey:)``. Saves as ``set(_:forKey:)`` does.
    ///
    /// - Throws: ``KeychainError``; `errSecParam` when the value cannot be encoded.
    public func encode(_ value: some Encodable, forKey key: String) throws(KeychainError) {
        try save(try JSONValueCoding.encode(value), forKey: key)
    }

    /// The save behind ``set(_:forKey:)`` and ``encode(_:forKey:)``: an upsert.
    func save(_ secret: Data, forKey key: String) throws(KeychainError) {
        try SecItemCalls.upsert(try itemQuery(forKey: key), changes: try writtenAttributes(secret: secret), during: "saving an item")
    }

    /// Removes the item of a key, synchronizable or not.
    ///
    /// - Returns: Whether there was an item to remove.
    /// - Throws: ``KeychainError``.
    @discardableResult
    public func remove(_ key: String) throws(KeychainError) -> Bool {
        try SecItemCalls.delete(try itemQuery(forKey: key, synchronizable: .any), during: "removing an item")
    }

    /// Removes every item of this keychain (its service, or its server, protocol,
    /// authentication type, port and path), synchronizable items included.
    ///
    /// - Throws: ``KeychainError``. An empty keychain is not an error.
    public func removeAll() throws(KeychainError) {
        _ = try SecItemCalls.delete(try baseQuery(synchronizable: .any), during: "removing all items")
    }
}
