import Foundation
import Security

/// An item of a ``Keychain``, as ``Keychain/allItems()`` returns it: its key, its secret and
/// its attributes.
///
/// Its `description` and reflection (`dump`, debuggers' summaries) show the key and
/// attributes but never the secret.
public struct KeychainItem: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The key (the item's account).
    public let key: String
    /// The secret's bytes.
    public let data: Data
    /// Every attribute Keychain Services returned, keyed by its four-character name
    /// (`kSecAttrLabel as String`), such as label, comment, access group and dates.
    public let attributes: [String: Keychain.AttributeValue]

    /// An item from its parts.
    public init(key: String, data: Data, attributes: [String: Keychain.AttributeValue]) {
        self.key = key
        self.data = data
        self.attributes = attributes
    }

    /// The label (`kSecAttrLabel`), if set.
    public var label: String? { text(kSecAttrLabel) }
    /// The comment (`kSecAttrComment`), if set.
    public var comment: String? { text(kSecAttrComment) }
    /// The access group (`kSecAttrAccessGroup`).
    public var accessGroup: String? { text(kSecAttrAccessGroup) }
    /// The accessibility (`kSecAttrAccessible`).
    public var accessibility: Accessibility? { text(kSecAttrAccessible).flatMap(Accessibility.init(rawValue:)) }

    /// Whether the item is synchronizable (`kSecAttrSynchronizable`).
    public var synchronizable: Bool {
        switch attributes[kSecAttrSynchronizable as String] {
        case .integer(let flag)?: flag != 0
        case .bool(let flag)?: flag
        default: false
        }
    }

    /// When the item was added (`kSecAttrCreationDate`).
    public var creationDate: Date? { date(kSecAttrCreationDate) }
    /// When the item was last changed (`kSecAttrModificationDate`).
    public var modificationDate: Date? { date(kSecAttrModificationDate) }

    /// The secret read as a ``KeychainValue``.
    ///
    /// - Throws: ``KeychainError`` `errSecDecode` when the bytes are not such a value.
    public func value<Value: KeychainValue>(as type: Value.Type = Value.self) throws(KeychainError) -> Value {
        try Value(keychainData: data)
    }

    /// The secret decoded from JSON, as ``Keychain/encode(_:forKey:)`` stores it.
    ///
    /// - Throws: ``KeychainError`` `errSecDecode` when the bytes are not a JSON `Value`.
    public func decode<Value: Decodable>(_ type: Value.Type) throws(KeychainError) -> Value {
        try JSONValueCoding.decode(type, from: data)
    }

    /// The key and attribute names; the secret is left out.
    public var description: String {
        "KeychainItem(key: \(key), attributes: \(attributes.keys.sorted()), data: <redacted>)"
    }

    /// Reflection without the secret, so that `dump` and debuggers do not print it.
    public var customMirror: Mirror {
        Mirror(self, children: ["key": key, "attributes": attributes, "data": "<redacted>"])
    }

    private func text(_ name: CFString) -> String? {
        if case .string(let text)? = attributes[name as String] { return text }
        return nil
    }

    private func date(_ name: CFString) -> Date? {
        if case .date(let date)? = attributes[name as String] { return date }
        return nil
    }
}
