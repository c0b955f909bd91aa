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

/// An item read by its reference: opened, or named by its clear columns when it failed to.
enum OpenedItem {
    case item(KeychainItem)
    case unreadable(SecUnreadableItem)
}

/// The SecItem calls keychainctl makes, in one keychain: every query names it with
/// `kSecUseKeychain`. A failing status becomes a ``ToolFailure`` that names the call, as
/// `security` names the function that failed.
struct ItemStore {
    let keychain: SecKeychain

    /// The keychain's database, as the attribute blocks name it.
    var keychainPath: String { keychain.path }

    /// The first item a query matches, as `security` takes the first match; nil when none
    /// does.
    func first(_ query: [String: Any], withData: Bool) throws -> KeychainItem? {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(unbridged:
            scoped(query).merging(Self.returning(withData: withData)) { _, new in new }, &result)
        if status == errSecItemNotFound { return nil }
        try check(status, "SecItemCopyMatching")
        guard let found = result as? [String: Any], let item = Self.item(found, itemClass: query[kSecClass as String] as? String)
        else { throw ToolFailure.status(errSecDecode, during: "SecItemCopyMatching") }
        return item
    }

    /// The first item a query matches; none is errSecItemNotFound.
    func existing(_ query: [String: Any], withData: Bool) throws -> KeychainItem {
        guard let item = try first(query, withData: withData) else {
            throw ToolFailure.status(errSecItemNotFound, during: "SecItemCopyMatching")
        }
        return item
    }

    /// The first item a query matches, as ``first(_:withData:)`` takes it, when every match
    /// is in one access group; matches in several groups fail (``ToolFailure/ambiguous(_:groups:)``)
    /// rather than change one program's item by chance.
    func firstInOneGroup(_ query: [String: Any], during operation: String) throws -> KeychainItem? {
        let matches = try all(query, withData: false)
        let groups = Set(matches.map { $0.attributes[kSecAttrAccessGroup as String] as? String ?? "" }).sorted()
        guard groups.count <= 1 else { throw ToolFailure.ambiguous(operation, groups: groups) }
        return matches.first
    }

    /// Only the secret of the first match: what `find-*-password -w` needs, and no more.
    /// None is errSecItemNotFound.
    func existingSecret(_ query: [String: Any]) throws -> Data {
        var result: CFTypeRef?
        try check(SecItemCopyMatching(unbridged: scoped(query).merging([kSecReturnData as String: true]) { _, new in new },
                                      &result), "SecItemCopyMatching")
        guard let data = Self.bytes(result) else { throw ToolFailure.status(errSecDecode, during: "SecItemCopyMatching") }
        return data
    }

    /// Every item of a class the query matches, in insertion order; none is an empty list.
    func all(_ query: [String: Any], withData: Bool) throws -> [KeychainItem] {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(unbridged: scoped(query).merging(Self.returning(withData: withData)) { _, new in new }
            .merging([kSecMatchLimit as String: kSecMatchLimitAll]) { _, new in new }, &result)
        if status == errSecItemNotFound { return [] }
        try check(status, "SecItemCopyMatching")
        let found = result as? [[String: Any]] ?? []
        return try found.map { entry in
            guard let item = Self.item(entry, itemClass: query[kSecClass as String] as? String) else {
                throw ToolFailure.status(errSecDecode, during: "SecItemCopyMatching")
            }
            return item
        }
    }

    /// The persistent references of every item of a class the query matches, in insertion
    /// order. Nothing is opened, so a damaged item is listed too.
    func references(_ query: [String: Any]) throws -> [Data] {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(unbridged: scoped(query).merging([
            kSecReturnPersistentRef as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
        ]) { _, new in new }, &result)
        if status == errSecItemNotFound { return [] }
        try check(status, "SecItemCopyMatching")
        guard let references = result as? [Data] else { throw ToolFailure.status(errSecDecode, during: "SecItemCopyMatching") }
        return references
    }

    /// Every item of a class the query matches, in insertion order, each opened alone: the
    /// items that fail to open are returned apart (what their rows say in the clear) rather
    /// than failing the whole listing.
    func readable(_ query: [String: Any], withData: Bool) throws -> (items: [KeychainItem], skipped: [SecUnreadableItem]) {
        guard let itemClass = query[kSecClass as String] as? String else { return ([], []) }
        var items: [KeychainItem] = []
        var skipped: [SecUnreadableItem] = []
        for reference in try references(query) {
            switch try opened(reference, itemClass: itemClass, withData: withData) {
            case .item(let item): items.append(item)
            case .unreadable(let unreadable): skipped.append(unreadable)
            case nil: break  // deleted meanwhile
            }
        }
        return (items, skipped)
    }

    /// The item a persistent reference names, opened; or, when it fails to open (damaged or
    /// altered, errSecDecode), what its row still says in the clear. nil when it is gone.
    func opened(_ reference: Data, itemClass: String, withData: Bool) throws -> OpenedItem? {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(unbridged: scoped([
            kSecClass as String: itemClass, kSecValuePersistentRef as String: reference,
        ]).merging(Self.returning(withData: withData)) { _, new in new }, &result)
        switch status {
        case errSecItemNotFound:
            return nil
        case errSecDecode:
            guard let unreadable = (try? keychain.unreadableItem(persistentReference: reference)) ?? nil
            else { throw ToolFailure.status(errSecDecode, during: "SecItemCopyMatching") }
            return .unreadable(unreadable)
        default:
            try check(status, "SecItemCopyMatching")
            guard let found = result as? [String: Any], let item = Self.item(found, itemClass: itemClass)
            else { throw ToolFailure.status(errSecDecode, during: "SecItemCopyMatching") }
            return .item(item)
        }
    }

    func add(_ attributes: [String: Any]) throws {
        try check(SecItemAdd(scoped(attributes) as CFDictionary, nil), "SecItemAdd")
    }

    /// Changes this one item, whatever else the query that found it matched.
    func update(_ item: KeychainItem, with changes: [String: Any]) throws {
        try check(SecItemUpdate(scoped([kSecValuePersistentRef as String: item.reference]) as CFDictionary,
                                changes as CFDictionary), "SecItemUpdate")
    }

    /// Deletes this one item, whatever else the query that found it matched.
    func delete(_ item: KeychainItem) throws {
        try check(SecItemDelete(scoped([kSecValuePersistentRef as String: item.reference]) as CFDictionary), "SecItemDelete")
    }

    /// The query in this keychain.
    private func scoped(_ query: [String: Any]) -> [String: Any] {
        query.merging([kSecUseKeychain as String: keychain]) { _, new in new }
    }

    private static func returning(withData: Bool) -> [String: Any] {
        var keys: [String: Any] = [kSecReturnAttributes as String: true, kSecReturnPersistentRef as String: true]
        if withData { keys[kSecReturnData as String] = true }
        return keys
    }

    /// Splits a result dictionary into the item's attributes, data and reference.
    private static func item(_ found: [String: Any], itemClass: String?) -> KeychainItem? {
        guard let itemClass, let reference = bytes(found[kSecValuePersistentRef as String])
        else { return nil }
        var attributes = found
        attributes[kSecValuePersistentRef as String] = nil
        let data = bytes(attributes.removeValue(forKey: kSecValueData as String))
        return KeychainItem(itemClass: itemClass, attributes: attributes, data: data, reference: reference)
    }

    /// The bytes of a result's secret or persistent reference, which the library returns as
    /// `NSData`. Taken as that class and copied, not cast with `as? Data`: that bridge asks
    /// the run time whether the object and `Data` conform to `_NSSwiftValue`,
    /// `_ObjectiveCBridgeable` and `ContiguousBytes`, and each new question scans every
    /// conformance record of the program (five scans, 5% of a fresh `find -w`'s instructions).
    private static func bytes(_ value: Any?) -> Data? {
        guard let object = value as? NSData else { return nil }
        return Data(bytes: object.bytes, count: object.length)
    }
}
