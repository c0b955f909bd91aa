import Foundation
import Security

/// One generic password seen as a dictionary keyed by `kSec` constants: the
/// `KeychainItemWrapper` class of Apple's GenericKeychain sample, in Swift.
///
/// ```swift
/// let pin = try KeychainItemWrapper(identifier: "com.example.app.pin", accessGroup: nil)
/// try pin.setObject("pinIdentifier", forKey: .account)
/// try pin.setObject(Accessibility.whenUnlocked, forKey: .accessible)
/// try pin.setObject("1234", forKey: .valueData)
/// let stored = pin.object(forKey: .valueData) as? String   // "1234"
/// try pin.resetKeychainItem()
/// ```
///
/// The wrapper finds its item by the identifier, stored in `kSecAttrGeneric`, and the
/// access group if one is given. Creating a wrapper loads the item's attributes and secret
/// into memory, or, if there is no item, the sample's defaults: account, label, description
/// and secret all `""`. ``object(forKey:)-(String)`` reads that memory; ``setObject(_:forKey:)-(_,String)``
/// changes it and writes the whole item at once (added the first time, updated after).
/// Keys may be a ``Key`` (`.account`), which needs no `import Security`, the constants
/// themselves (`kSecAttrAccount`) or their strings (`kSecAttrAccount as String`).
///
/// ## The sample's quirks this keeps, for compatibility
/// - **Items collide on account and service.** The wrapper searches by `kSecAttrGeneric`,
///   but a generic password's identity (its primary key) is account + service + access
///   group. Two wrappers with different identifiers that both keep the default empty
///   account and no service name the same item, so the second one's first write throws
///   `errSecDuplicateItem`. Give each wrapper its own `kSecAttrAccount` (as the book's
///   chapter does) or `kSecAttrService` before storing a secret. Changing the identity
///   behind the caller's back would hide their items from code using Keychain Services.
/// - **`kSecValueData` reads back as a `String`**, although Keychain Services stores it as
///   `Data` (the UTF-8 bytes): the sample is made for passwords, and the book compares
///   `object(forKey: kSecValueData)` with a text field. It also takes a `String`.
/// - **Every changed value is written at once.** Each ``setObject(_:forKey:)-(_,String)`` with a new
///   value writes the whole item, so configuring three attributes is three writes, and the
///   first one adds the item with whatever the other attributes hold then (the empty
///   account, for example). Setting an unchanged value writes nothing. Code relies on a
///   set being stored when it returns.
/// - **Each wrapper has its own copy.** Two wrappers of one identifier do not see each
///   other's changes until a new wrapper is created, and a write stores this wrapper's
///   whole copy.
/// - ``resetKeychainItem()`` deletes the item and sets the four defaults again in memory;
///   other attributes set before (accessibility, service, access group) stay in memory and
///   are used by the next write. Nothing is written until the next ``setObject(_:forKey:)-(_,String)``.
///
/// ## The quirks this fixes, and why
/// - **Failures throw** ``KeychainError`` instead of `NSAssert`, which crashes debug builds
///   and is compiled out of release builds, where failed writes went unnoticed. So the
///   initializer, ``setObject(_:forKey:)-(_,String)`` and ``resetKeychainItem()`` need `try`. A failed
///   write leaves the wrapper's memory as it was, so memory and keychain agree.
/// - **Non-UTF-8 secrets** read back as `Data` instead of crashing the sample (it stored a
///   nil string); `Data` is accepted for `kSecValueData` too (the sample sent the string
///   conversion message to it and crashed).
/// - **Only item attributes are written.** `kSecClass`, `kSecAttrGeneric` (the identifier
///   the wrapper searches by), return and match keys, and any other key are rejected with
///   `errSecParam`, because writing them would change what the call does or make the
///   wrapper lose its item. The dates Keychain Services returns are kept for reading but
///   not written back.
/// - **An update names exactly the item found**, by its account, service and access
///   group, instead of passing every returned attribute back as the query.
///
/// It is `Sendable`: a lock guards the wrapper's memory for the whole of each call.
public final class KeychainItemWrapper: Sendable, CustomReflectable {
    /// The identifier, stored in `kSecAttrGeneric`, by which the wrapper finds its item.
    public let identifier: String
    /// The access group the wrapper searches and adds in; nil for all of the process's
    /// groups when searching and its default group when adding.
    public let accessGroup: String?

    /// The item as the caller sees it: attributes by name, and the secret under `v_Data`.
    private let item: LockedState<[String: Keychain.AttributeValue]>

    /// The keys ``setObject(_:forKey:)`` accepts: the secret and the generic-password
    /// attributes a caller may set (not the identifier, dates or synchronizable flag).
    static let writableKeys: Set<String> = [
        kSecValueData, kSecAttrAccount, kSecAttrService, kSecAttrLabel, kSecAttrDescription,
        kSecAttrComment, kSecAttrCreator, kSecAttrType, kSecAttrIsInvisible, kSecAttrIsNegative,
        kSecAttrAccessible, kSecAttrAccessGroup,
    ].map { $0 as String }.reduce(into: []) { keys, key in keys.insert(key) }

    /// A wrapper for the item of an identifier, loading it if it exists.
    ///
    /// - Parameters:
    ///   - identifier: Names the item (`kSecAttrGeneric`), for example `"com.example.app.pin"`.
    ///   - accessGroup: The access group to search and add in; nil for the process's groups.
    /// - Throws: ``KeychainError``: `errSecMissingEntitlement` for a group the process does
    ///   not hold, `errSecInteractionNotAllowed` while the item cannot be read. A missing
    ///   item is not an error: the wrapper then holds the defaults.
    public init(identifier: String, accessGroup: String? = nil) throws(KeychainError) {
        self.identifier = identifier
        self.accessGroup = accessGroup
        var query = Self.searchQuery(identifier: identifier, accessGroup: accessGroup)
        query[kSecReturnAttributes as String] = true
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        switch try SecItemCalls.copyMatching(query, during: "loading a keychain item") {
        case .notFound:
            var values = Self.defaults
            values[kSecAttrGeneric as String] = .string(identifier)
            if let accessGroup { values[kSecAttrAccessGroup as String] = .string(accessGroup) }
            item = LockedState(values)
        case .found(let result):
            guard let attributes = result as? [String: Any] else {
                throw KeychainError(status: errSecDecode, reason: "the keychain returned no attributes for the item")
            }
            item = LockedState(Self.values(ofAttributes: attributes))
        }
    }

    /// Sets one attribute, or the secret, and writes the item if the value changed.
    ///
    /// - Parameters:
    ///   - object: The value: a `String` or `Data` for `kSecValueData`; a `String`, `Data`,
    ///     number, `Bool` or `Date` for attributes (an ``Accessibility`` or a `kSecAttrAccessible...` constant for
    ///     `kSecAttrAccessible`). Nil does nothing, as in the sample.
    ///   - key: `kSecValueData` or a generic-password attribute such as `kSecAttrAccount`,
    ///     `kSecAttrService`, `kSecAttrLabel`, `kSecAttrAccessible`, `kSecAttrAccessGroup`.
    /// - Throws: ``KeychainError``: `errSecParam` for another key or a value of the wrong
    ///   type; `errSecDuplicateItem` when another item has the account and service this one
    ///   would get; whatever Keychain Services reports. On failure the wrapper keeps its
    ///   previous value.
    public func setObject(_ object: Any?, forKey key: String) throws(KeychainError) {
        guard let object else { return }
        let value = try Self.value(object, forKey: key)
        try item.withLock { (values: inout [String: Keychain.AttributeValue]) throws(KeychainError) in
            guard values[key] != value else { return }
            var changed = values
            changed[key] = value
            try write(changed)
            values = changed
        }
    }

    /// Sets one attribute, or the secret, named by its constant: `setObject("1234", forKey: kSecValueData)`.
    /// Behaves as the overload that takes the key as a `String`.
    public func setObject(_ object: Any?, forKey key: CFString) throws(KeychainError) {
        try setObject(object, forKey: key as String)
    }

    /// The value of an attribute, or the secret for `kSecValueData` (a `String`, or `Data`
    /// when its bytes are not UTF-8), as this wrapper holds it; nil when not set.
    ///
    /// Numbers come back as `NSNumber`, so `as? Int` and `as? Bool` both read them.
    public func object(forKey key: String) -> Any? {
        item.withLock { values in
            switch values[key] {
            case nil: nil
            case .string(let string)?: string
            case .data(let data)?: data
            case .integer(let integer)?: NSNumber(value: integer)
            case .bool(let flag)?: flag
            case .date(let date)?: date
            }
        }
    }

    /// The value of an attribute named by its constant: `object(forKey: kSecAttrAccount)`.
    /// Behaves as the overload that takes the key as a `String`.
    public func object(forKey key: CFString) -> Any? {
        object(forKey: key as String)
    }

    /// Deletes the item from the keychain and puts the sample's defaults back in memory:
    /// account, label, description and secret `""`.
    ///
    /// The next ``setObject(_:forKey:)-(_,String)`` adds the item again. Deleting an item that was
    /// never written is not an error.
    ///
    /// - Throws: ``KeychainError`` when the item cannot be deleted; the wrapper is then unchanged.
    public func resetKeychainItem() throws(KeychainError) {
        try item.withLock { (values: inout [String: Keychain.AttributeValue]) throws(KeychainError) in
            let query = Self.searchQuery(identifier: identifier, accessGroup: accessGroup)
            _ = try SecItemCalls.delete(query, during: "resetting a keychain item")
            // The dates were the deleted item's; the keychain sets new ones on the next add.
            values[kSecAttrCreationDate as String] = nil
            values[kSecAttrModificationDate as String] = nil
            values.merge(Self.defaults) { _, reset in reset }
        }
    }

    /// The identifier, access group and attribute names; never the values, so that `dump`
    /// and debuggers do not show the secret.
    public var customMirror: Mirror {
        let names = item.withLock { $0.keys.sorted() }
        return Mirror(self, children: ["identifier": identifier, "accessGroup": accessGroup as Any, "keys": names])
    }

    // MARK: - Private

    /// The sample's defaults (`resetKeychainItem`).
    private static let defaults: [String: Keychain.AttributeValue] = [
        kSecAttrAccount as String: .string(""),
        kSecAttrLabel as String: .string(""),
        kSecAttrDescription as String: .string(""),
        kSecValueData as String: .string(""),
    ]

    /// The query that finds the wrapper's item, as the sample's: class, identifier, group.
    private static func searchQuery(identifier: String, accessGroup: String?) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrGeneric as String: identifier,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// A caller's value for a key, checked and in the form the wrapper holds.
    private static func value(_ object: Any, forKey key: String) throws(KeychainError) -> Keychain.AttributeValue {
        guard writableKeys.contains(key) else {
            throw KeychainError(status: errSecParam, reason: "KeychainItemWrapper does not set '\(key)'")
        }
        if key == kSecValueData as String {
            if let text = object as? String { return .string(text) }
            if let data = object as? Data { return secret(data) }
            throw KeychainError(status: errSecParam, reason: "kSecValueData takes a String or Data")
        }
        if let accessibility = object as? Accessibility {
            return .string(accessibility.rawValue)
        }
        guard let value = Keychain.AttributeValue(dictionaryValue: object) else {
            throw KeychainError(status: errSecParam, reason: "'\(key)' takes a String, Data, number, Bool or Date")
        }
        return value
    }

    /// The secret as the wrapper hands it back: text when the bytes are UTF-8.
    private static func secret(_ data: Data) -> Keychain.AttributeValue {
        String(data: data, encoding: .utf8).map { .string($0) } ?? .data(data)
    }

    /// What the wrapper holds for a stored item's attributes and data.
    private static func values(ofAttributes attributes: [String: Any]) -> [String: Keychain.AttributeValue] {
        var values: [String: Keychain.AttributeValue] = [:]
        for (name, stored) in attributes {
            if name == kSecValueData as String {
                values[name] = (stored as? Data).map(secret)
            } else {
                values[name] = Keychain.AttributeValue(dictionaryValue: stored)
            }
        }
        // An item may be added without data, and then reads back with empty data; be sure.
        if values[kSecValueData as String] == nil { values[kSecValueData as String] = .string("") }
        return values
    }

    /// Writes the whole item: an update of the item the wrapper finds, else an add.
    private func write(_ values: [String: Keychain.AttributeValue]) throws(KeychainError) {
        var attributes: [String: Any] = [:]
        for (name, value) in values where Self.writableKeys.contains(name) && name != kSecValueData as String {
            attributes[name] = value.dictionaryValue
        }
        let secret: Data = switch values[kSecValueData as String] {
        case .string(let text)?: Data(text.utf8)
        case .data(let data)?: data
        default: Data()
        }

        var changes = attributes
        changes[kSecValueData as String] = secret
        var newItem = changes
        newItem[kSecClass as String] = kSecClassGenericPassword
        newItem[kSecAttrGeneric as String] = identifier
        do throws(KeychainError) {
            try SecItemCalls.upsert(try identityOfStoredItem(), changes: changes, newItem: newItem,
                                    during: "writing a keychain item")
        } catch KeychainError.duplicateItem {
            throw KeychainError(
                .duplicateItem,
                reason: "another item has this account and service, a generic password's primary key; "
                    + "give each KeychainItemWrapper its own kSecAttrAccount or kSecAttrService")
        }
    }

    /// The query that names the wrapper's item alone: the stored item's primary key (for a
    /// generic password its account, service, access group and synchronizable flag) when
    /// there is one, so that an update touches no other item; else the search.
    private func identityOfStoredItem() throws(KeychainError) -> [String: Any] {
        let search = Self.searchQuery(identifier: identifier, accessGroup: accessGroup)
        var lookup = search
        lookup[kSecReturnAttributes as String] = true
        lookup[kSecMatchLimit as String] = kSecMatchLimitOne
        guard case .found(let result) = try SecItemCalls.copyMatching(lookup, during: "writing a keychain item"),
              let found = result as? [String: Any] else { return search }
        var identity: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrGeneric as String: found[kSecAttrGeneric as String] ?? identifier,
        ]
        // An absent account or service is the same key as an empty one.
        for name in [kSecAttrAccount, kSecAttrService].map({ $0 as String }) {
            identity[name] = found[name] ?? ""
        }
        identity[kSecAttrAccessGroup as String] = found[kSecAttrAccessGroup as String]
        return identity
    }
}
