import Foundation

// The async variants: each runs its synchronous twin on a background queue (see
// `BackgroundCalls`), so the caller's thread never waits on Keychain Services. A task
// cancelled before the call starts gets `errSecUserCanceled`.
extension Keychain {
    /// The secret stored under a key, without blocking the caller; see ``data(forKey:)``.
    public func data(forKey key: String) async throws(KeychainError) -> Data? {
        try await BackgroundCalls.run { () throws(KeychainError) in try self.data(forKey: key) }
    }

    /// The text stored under a key, without blocking the caller; see ``string(forKey:)``.
    public func string(forKey key: String) async throws(KeychainError) -> String? {
        try await BackgroundCalls.run { () throws(KeychainError) in try self.string(forKey: key) }
    }

    /// The value stored under a key, without blocking the caller; see ``value(forKey:as:)``.
    public func value<Value: KeychainValue>(forKey key: String, as type: Value.Type = Value.self) async throws(KeychainError) -> Value? {
        try await BackgroundCalls.run { () throws(KeychainError) in try self.value(forKey: key, as: type) }
    }

    /// A JSON value stored under a key, without blocking the caller; see ``decode(_:forKey:)``.
    public func decode<Value: Decodable & Sendable>(_ type: Value.Type, forKey key: String) async throws(KeychainError) -> Value? {
        try await BackgroundCalls.run { () throws(KeychainError) in try self.decode(type, forKey: key) }
    }

    /// Whether an item exists for a key, without blocking the caller; see ``contains(_:)``.
    public func contains(_ key: String) async throws(KeychainError) -> Bool {
        try await BackgroundCalls.run { () throws(KeychainError) in try self.contains(key) }
    }

    /// Stores a value under a key, without blocking the caller; see ``set(_:forKey:)``.
    public func set(_ value: some KeychainValue, forKey key: String) async throws(KeychainError) {
        try await BackgroundCalls.run { () throws(KeychainError) in try self.set(value, forKey: key) }
    }

    /// Stores an `Encodable` value as JSON, without blocking the caller; see ``encode(_:forKey:)``.
    public func encode(_ value: some Encodable & Sendable, forKey key: String) async throws(KeychainError) {
        try await BackgroundCalls.run { () throws(KeychainError) in try self.encode(value, forKey: key) }
    }

    /// Removes the item of a key, without blocking the caller; see ``remove(_:)``.
    @discardableResult
    public func remove(_ key: String) async throws(KeychainError) -> Bool {
        try await BackgroundCalls.run { () throws(KeychainError) in try self.remove(key) }
    }

    /// Removes every item of this keychain, without blocking the caller; see ``removeAll()``.
    public func removeAll() async throws(KeychainError) {
        try await BackgroundCalls.run { () throws(KeychainError) in try self.removeAll() }
    }

    /// The keys of this keychain's items, without blocking the caller; see ``allKeys()``.
    public func allKeys() async throws(KeychainError) -> [String] {
        try await BackgroundCalls.run { () throws(KeychainError) in try self.allKeys() }
    }

    /// This keychain's items, without blocking the caller; see ``allItems()``.
    public func allItems() async throws(KeychainError) -> [KeychainItem] {
        try await BackgroundCalls.run { () throws(KeychainError) in try self.allItems() }
    }

    /// Moves another keychain's items into this one, without blocking the caller; see
    /// ``migrateItems(from:removeOnCompletion:)``.
    @discardableResult
    public func migrateItems(from source: Keychain, removeOnCompletion: Bool) async throws(KeychainError) -> Int {
        try await BackgroundCalls.run { () throws(KeychainError) in
            try self.migrateItems(from: source, removeOnCompletion: removeOnCompletion)
        }
    }
}
