import Foundation
@_implementationOnly import KeychainCore

/// Adds an item to the keychain.
///
/// - Parameters:
///   - attributes: The item's class (`kSecClass`), attributes, secret (`kSecValueData`)
///     and, optionally, `kSecReturn*` keys.
///   - result: Where to put what the return keys ask for; nil when none or not wanted.
/// - Returns: `errSecSuccess`, or a status such as `errSecDuplicateItem` or `errSecParam`.
@discardableResult
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecItemCall.run(.add) { environment in
        var query = try QueryParser.parse(attributes, for: .add)
        // A key's external representation is its secret, and this copy is ours to clear.
        defer { if query.valueReference != nil { query.valueData?.zeroize() } }
        let store = try query.store(in: environment)
        if query.itemClass == .identity {
            guard case .identity(let identity)? = query.valueReference else {
                throw KeychainError.param("an identity is added with kSecValueRef holding a SecIdentity")
            }
            let added = try IdentityItems.add(identity, with: query, in: store, by: environment.caller)
            result?.pointee = ResultShape.object(for: [added.item], returning: query.returning, single: true) { _ in
                added.identity
            }
            return
        }
        var newItem = query.newItem
        let plaintext = query.valueData
        if AccessControlAttributes.requiresApplicationPassword(newItem.attributes) {
            var authorization = ItemAuthorization(query.authentication)
            let key = try ApplicationPasswordSeal.sealingKey(password: try authorization.applicationPassword(),
                                                             kdf: try store.applicationPasswordKDF())
            newItem.data = try ApplicationPasswordSeal.seal(plaintext ?? Data(), with: key)
        }
        var added = try store.add(newItem, by: environment.caller, returning: query.storeReturning)
        if added.data != nil, let plaintext { added = added.replacingData(plaintext) }
        result?.pointee = ResultShape.object(for: [added], returning: query.returning, single: true)
    }
}

/// Finds the items a query matches and returns what its `kSecReturn*` keys ask for.
///
/// With `kSecMatchLimitOne` (the default) the result is one object; with any other limit
/// an array. No match is `errSecItemNotFound` and leaves `result` untouched.
@discardableResult
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecItemCall.run(.copyMatching) { environment in
        try copyMatchingResult(try QueryParser.parse(query, for: .copyMatching), in: environment, result)
    }
}

/// ``SecItemCopyMatching(_:_:)`` for a query that this package's programs build as a Swift
/// dictionary: the same parsing and result, without Foundation bridging every key and value
/// to an `NSDictionary` (and each value back), which cost a fresh `keychainctl` find a
/// fourteenth of its instructions.
@discardableResult
package func SecItemCopyMatching(unbridged query: [String: Any], _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecItemCall.run(.copyMatching) { environment in
        try copyMatchingResult(try QueryParser.parse(query, for: .copyMatching), in: environment, result)
    }
}

/// The search of both forms of ``SecItemCopyMatching(_:_:)``, once parsed.
private func copyMatchingResult(_ parsed: ParsedQuery, in environment: KeychainEnvironment,
                                _ result: UnsafeMutablePointer<CFTypeRef?>?) throws {
    let store = try parsed.store(in: environment)
    if parsed.itemClass == .identity {
        let found = try ItemList.joined(try parsed.narrowedByItemList(), limit: parsed.limit) { query throws(KeychainError) in
            try IdentityItems.find(query, in: store, by: environment.caller)
        } reference: { $0.item.persistentReference }
        let identities = Dictionary(found.map { ($0.item.persistentReference, $0.identity) }) { first, _ in first }
        result?.pointee = try nonEmpty(ResultShape.object(for: found.map(\.item), returning: parsed.returning,
                                                       single: parsed.limit == .one) { identities[$0.persistentReference] },
                                    returning: parsed.returning)
        return
    }
    // Skipping the items that need the user must not hide the matches behind them: such a
    // search takes every match, and the limit applies to what is left.
    let skipping = parsed.returning.contains(.data) && parsed.authentication.interface == .skip
    let caller = environment.caller
    // The searches take the store's form of the query: a function of the parsed query
    // itself made every find copy it whole, twice.
    func find(_ itemQuery: ItemQuery) throws(KeychainError) -> [FoundItem] {
        var itemQuery = itemQuery
        if skipping { itemQuery.limit = .all }
        return try store.find(itemQuery, by: caller)
    }
    // Without an item list the query is its one narrowed form: searched as it is, with no
    // list of queries to build and copy it into.
    var found = try parsed.itemList == nil ? find(parsed.itemQuery)
        : ItemList.joined(try parsed.narrowedByItemList(), limit: skipping ? .all : parsed.limit) {
            query throws(KeychainError) in try find(query.itemQuery)
        } reference: {
            $0.persistentReference
        }
    // Secrets need what their access control asks for; references and attributes never do
    // (a key's private part asks when it is used).
    if parsed.returning.contains(.data) {
        var authorization = ItemAuthorization(parsed.authentication)
        found = try authorization.authorize(found)
        if case .count(let count) = parsed.limit { found = Array(found.prefix(count)) }
        if found.isEmpty { throw KeychainError.itemNotFound }
    }
    // A key keeps the search's context and prompt, for asking when its private part is used
    // (ItemObject's objects, by default).
    result?.pointee = try nonEmpty(ResultShape.object(for: found, returning: parsed.returning, single: parsed.limit == .one,
                                                      authentication: parsed.authentication),
                                   returning: parsed.returning)
}

/// A search's result, or errSecItemNotFound when something was asked for and nothing could be
/// given: items of which no object can be made (a symmetric key, damaged certificate bytes)
/// asked for by `kSecReturnRef` alone, which Apple leaves out. Never success with nil or an
/// empty array: a search that finds nothing leaves the result nil.
private func nonEmpty(_ result: CFTypeRef?, returning: ReturnOptions) throws(KeychainError) -> CFTypeRef? {
    guard returning.isEmpty || (result != nil && (result as? NSArray)?.count != 0) else { throw .itemNotFound }
    return result
}

/// Changes every item the query matches, all or none of them.
///
/// - Parameters:
///   - query: The class and attributes of the items to change; no return or match keys.
///   - attributesToUpdate: New attribute values and, optionally, a new `kSecValueData`.
@discardableResult
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    SecItemCall.run(.update) { environment in
        let parsed = try QueryParser.parse(query, for: .update)
        if parsed.itemClass == .identity {
            throw KeychainError.unimplemented("identities are updated through their certificate and key items")
        }
        var changes = try QueryParser.parseChanges(attributesToUpdate, for: parsed.itemClass)
        let store = try parsed.store(in: environment)
        guard changes.data != nil || changes.attributes[AccessControlAttributes.code] != nil else {
            try store.update(parsed.itemQuery, with: changes, by: environment.caller)
            return
        }
        // New secrets of application-password items are sealed under that password, which is
        // asked for (outside the write) only when a match turns out to need it.
        let sealing = ApplicationPasswordSealing()
        changes.secretForItem = sealing.secret
        do {
            try store.update(parsed.itemQuery, with: changes, by: environment.caller)
        } catch where sealing.neededPassword {
            var authorization = ItemAuthorization(parsed.authentication)
            sealing.key = try ApplicationPasswordSeal.sealingKey(password: try authorization.applicationPassword(),
                                                                 kdf: try store.applicationPasswordKDF())
            try store.update(parsed.itemQuery, with: changes, by: environment.caller)
        }
    }
}

/// Deletes every item the query matches.
@discardableResult
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    SecItemCall.run(.delete) { environment in
        let parsed = try QueryParser.parse(query, for: .delete)
        let store = try parsed.store(in: environment)
        if parsed.itemClass == .identity {
            try IdentityItems.delete(try parsed.narrowedByItemList(), in: store, by: environment.caller)
        } else if parsed.itemList != nil {
            try store.delete(every: try parsed.narrowedByItemList().map(\.itemQuery), by: environment.caller)
        } else {
            try store.delete(parsed.itemQuery, by: environment.caller)
        }
    }
}

extension ParsedQuery {
    /// The keychain the query names with `kSecUseKeychain`, or the environment's default.
    func store(in environment: KeychainEnvironment) throws(KeychainError) -> KeychainStore {
        if let keychain { return try keychain.store() }
        return try KeychainStore.shared(environment.files)
    }
}

extension SecItemCall {
    /// Runs one call against the current environment and turns its outcome into a status.
    static func run(_ call: SecItemCall, _ body: (KeychainEnvironment) throws -> Void) -> OSStatus {
        do {
            try body(KeychainEnvironment.current)
            return errSecSuccess
        } catch {
            // Every failure below is a KeychainError; anything else would be a bug, reported as I/O.
            let failure = error as? KeychainError ?? .io("unexpected failure")
            securityLogger.debug("SecItem call failed",
                                 metadata: ["call": "\(call)", "status": "\(failure.status)", "reason": "\(failure)"])
            return failure.status
        }
    }
}
