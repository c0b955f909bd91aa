import Foundation

extension Keychain {
    /// The same keychain, with `async` methods: `try await keychain.async.set(token, forKey: "k")`.
    ///
    /// Each method runs its synchronous twin on a background queue, so that the caller's
    /// thread, or one of Swift's cooperative threads, never waits on Keychain Services.
    /// In `async` code the synchronous calls stay available as they are: a Vapor handler
    /// may call `try keychain.set(...)` directly, and `try await keychain.async.set(...)`
    /// when the call should not block.
    ///
    /// Code written for the former `async` overloads (`try await keychain.set(...)`) still
    /// compiles, with a warning that no operation in the `await` is async: it now makes
    /// the synchronous call. Insert `.async` to keep the call off the caller's thread.
    public var async: AsyncKeychain { AsyncKeychain(keychain: self) }
}

/// A ``Keychain`` whose methods are `async`, as ``Keychain/async`` gives it.
///
/// Each method runs its synchronous twin on a background queue and returns its result. A
/// task cancelled before the call starts gets ``KeychainError/userCanceled``; once
/// started, the call completes, so a save is never half-done by cancellation. On Linux the
/// call goes to the keychain the caller's `SecItem` calls would use.
public struct AsyncKeychain: Sendable, Hashable {
    /// The keychain whose synchronous methods these run.
    public let keychain: Keychain

    /// The async view of a keychain.
    public init(keychain: Keychain) {
        self.keychain = keychain
    }
    /// The secret stored under a key, without blocking the caller; see ``Keychain/data(forKey:)``.
    public func data(forKey key: String) async throws(KeychainError) -> Data? {
        try await BackgroundCalls.run { () throws(KeychainError) in try keychain.data(forKey: key) }
    }

    /// The text stored under a key, without blocking the caller; see ``Keychain/string(forKey:)``.
    public func string(forKey key: String) async throws(KeychainError) -> String? {
        try await BackgroundCalls.run { () throws(KeychainError) in try keychain.string(forKey: key) }
    }

    /// The value stored under a key, without blocking the caller; see ``Keychain/value(forKey:as:)``.
    public func value<Value: KeychainValue>(forKey key: String, as type: Value.Type = Value.self) async throws(KeychainError) -> Value? {
        try await BackgroundCalls.run { () throws(KeychainError) in try keychain.value(forKey: key, as: type) }
    }

    /// A JSON value stored under a key, without blocking the caller; see ``Keychain/decode(_:forKey:)``.
    public func decode<Value: Decodable & Sendable>(_ type: Value.Type, forKey key: String) async throws(KeychainError) -> Value? {
        try await BackgroundCalls.run { () throws(KeychainError) in try keychain.decode(type, forKey: key) }
    }

    /// Whether an item exists for a key, without blocking the caller; see ``Keychain/contains(_:)``.
    public func contains(_ key: String) async throws(KeychainError) -> Bool {
        try await BackgroundCalls.run { () throws(KeychainError) in try keychain.contains(key) }
    }

    /// Stores a value under a key, without blocking the caller; see ``Keychain/set(_:forKey:)``.
    public func set(_ value: some KeychainValue, forKey key: String) async throws(KeychainError) {
        try await BackgroundCalls.run { () throws(KeychainError) in try keychain.set(value, forKey: key) }
    }

    /// Stores an `Encodable` value as JSON, without blocking the caller; see ``Keychain/encode(_:forKey:)``.
    public func encode(_ value: some Encodable & Sendable, forKey key: String) async throws(KeychainError) {
        try await BackgroundCalls.run { () throws(KeychainError) in try keychain.encode(value, forKey: key) }
    }

    /// Removes the item of a key, without blocking the caller; see ``Keychain/remove(_:)``.
    @discardableResult
    public func remove(_ key: String) async throws(KeychainError) -> Bool {
        try await BackgroundCalls.run { () throws(KeychainError) in try keychain.remove(key) }
    }

    /// Removes every item of this keychain, without blocking the caller; see ``Keychain/removeAll()``.
    public func removeAll() async throws(KeychainError) {
        try await BackgroundCalls.run { () throws(KeychainError) in try keychain.removeAll() }
    }

    /// The keys of this keychain's items, without blocking the caller; see ``Keychain/allKeys()``.
    public func allKeys() async throws(KeychainError) -> [String] {
        try await BackgroundCalls.run { () throws(KeychainError) in try keychain.allKeys() }
    }

    /// This keychain's items, without blocking the caller; see ``Keychain/allItems()``.
    public func allItems() async throws(KeychainError) -> [KeychainItem] {
        try await BackgroundCalls.run { () throws(KeychainError) in try keychain.allItems() }
    }

    /// Moves another keychain's items into this one, without blocking the caller; see
    /// ``Keychain/migrateItems(from:removeOnCompletion:)``.
    @discardableResult
    public func migrateItems(from source: Keychain, removeOnCompletion: Bool) async throws(KeychainError) -> Int {
        try await BackgroundCalls.run { () throws(KeychainError) in
            try keychain.migrateItems(from: source, removeOnCompletion: removeOnCompletion)
        }
    }
}
