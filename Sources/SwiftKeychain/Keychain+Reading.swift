import Foundation
import Security

// Reading items by key. A missing item is nil, never an error.
extension Keychain {
    /// The secret stored under a key, as bytes.
    ///
    /// - Returns: The bytes, or nil when there is no item for the key.
    /// - Throws: ``KeychainError``, for example `errSecInteractionNotAllowed` while the item
    ///   cannot be read.
    public func data(forKey key: String) throws(KeychainError) -> Data? {
        try SecItemCalls.data(of: try itemQuery(forKey: key), during: "reading an item")
    }

    /// The text stored under a key.
    ///
    /// - Returns: The text, or nil when there is no item for the key.
    /// - Throws: ``KeychainError``; `errSecDecode` when the stored bytes are not UTF-8.
    public func string(forKey key: String) throws(KeychainError) -> String? {
        try value(forKey: key, as: String.self)
    }

    /// The value stored under a key, read as a ``KeychainValue`` (String, Data, Bool, a number).
    ///
    /// ```swift
    /// let retries = try keychain.value(forKey: "retries", as: Int.self)
    /// ```
    ///
    /// - Returns: The value, or nil when there is no item for the key.
    /// - Throws: ``KeychainError``; `errSecDecode` when the stored bytes are not such a value.
    public func value<Value: KeychainValue>(forKey key: String, as type: Value.Type = Value.self) throws(KeychainError) -> Value? {
        guard let data = try data(forKey: key) else { return nil }
        return try Value(keychainData: data)
    }

    /// A `Decodable` value stored as JSON under a key by ``encode(_:forKey:)``.
    ///
    /// - Returns: The value, or nil when there is no item for the key.
    /// - Throws: ``KeychainError``; `errSecDecode` when the stored JSON is not a `Value`.
    public func decode<Value: Decodable>(_ type: Value.Type, forKey key: String) throws(KeychainError) -> Value? {
        guard let data = try data(forKey: key) else { return nil }
        return try JSONValueCoding.decode(type, from: data)
    }

    /// The text stored under a key: `try keychain["token"]`.
    ///
    /// Read-only, because a subscript setter cannot throw and a failed write of a secret
    /// must not pass silently; use ``set(_:forKey:)`` to write.
    public subscript(key: String) -> String? {
        get throws(KeychainError) { try string(forKey: key) }
    }

    /// The value stored under a key: `try keychain["retries", as: Int.self]`.
    public subscript<Value: KeychainValue>(key: String, as type: Value.Type) -> Value? {
        get throws(KeychainError) { try value(forKey: key, as: type) }
    }

    /// Whether an item exists for a key. Reads no secret.
    ///
    /// - Throws: ``KeychainError`` when the keychain cannot be searched.
    public func contains(_ key: String) throws(KeychainError) -> Bool {
        switch try SecItemCalls.copyMatching(try itemQuery(forKey: key), during: "searching for an item") {
        case .notFound: false
        case .found: true
        }
    }
}
