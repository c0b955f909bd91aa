import Foundation
@_implementationOnly import KeychainCore

/// The four calls, whose dictionaries accept different keys.
package enum SecItemCall {
    case add, copyMatching, update, delete
}

/// A query dictionary read into typed form, with Apple's parsing rules applied: key routing
/// by prefix (a 4-character key is an attribute; `class`, `m_`, `r_`, `u_`, `v_` the rest),
/// value types, and what each call accepts.
package struct ParsedQuery {
    var itemClass: ItemClass
    var attributes: [String: AttributeValue] = [:]
    var synchronizable: SynchronizableFilter = .notSynchronizable
    var persistentReference: PersistentReference?
    var limit: MatchLimit = .one
    /// Written without a literal, which would go through the generic initializer of `SetAlgebra`
    /// from a sequence on every parse.
    var returning = ReturnOptions(rawValue: 0)
    var valueData: Data?
    /// `kSecUseKeychain`: the keychain to use instead of the default one.
    var keychain: SecKeychain?
    /// `kSecValueRef`: its attributes (and, for an add, its data) are already merged in.
    var valueReference: ItemReference?
    /// `kSecMatchItemList` or `kSecUseItemList`: the items a search or delete is limited to.
    var itemList: ItemList?
    /// `kSecUseAuthenticationUI`, `kSecUseAuthenticationContext` and `kSecUseOperationPrompt`:
    /// how the user is asked for items whose access control needs them.
    var authentication = AuthenticationOptions()

    /// Inlined: a call of it, or of ``storeReturning``, copied the whole query first.
    @inline(__always)
    var itemQuery: ItemQuery {
        ItemQuery(itemClass: itemClass, attributes: attributes, synchronizable: synchronizable,
                  persistentReference: persistentReference, limit: limit, returning: storeReturning)
    }

    /// What the store must hand back: a key or certificate object is made from the item's
    /// attributes and data, so a reference needs the data even when the caller did not ask
    /// for it.
    @inline(__always)
    var storeReturning: ReturnOptions {
        guard returning.contains(.reference), itemClass != .genericPassword, itemClass != .internetPassword
        else { return returning }
        return returning.union([.data, .attributes])
    }

    var newItem: NewItem {
        NewItem(itemClass: itemClass, attributes: attributes,
                isSynchronizable: synchronizable.valueForNewItem, data: valueData)
    }
}

extension ParsedQuery {
    /// Merges what a `kSecValueRef` stands for under the attributes the caller named: for an
    /// add its derived attributes and data, for the other calls the attributes that
    /// identify its item (SecItem.c's cook_query: the caller's entries take precedence).
    mutating func merge(_ reference: ItemReference, for call: SecItemCall) throws(KeychainError) {
        valueReference = reference
        if call == .add {
            if valueData != nil { throw .param("kSecValueData cannot be combined with kSecValueRef") }
            valueData = reference.data
            attributes.merge(reference.storedAttributes) { given, _ in given }
            // A Secure Enclave-style key is this machine's only: never under a class that
            // an archive carries to another one.
            if case .key(let key) = reference, !key.isExportable,
               case .string(let raw)? = attributes[ItemSchema.accessible.code],
               Accessibility(rawValue: raw)?.isThisDeviceOnly == false {
                throw .param("a Secure Enclave-style key is stored only under a ThisDeviceOnly kSecAttrAccessible value")
            }
        } else {
            attributes.merge(reference.identifyingAttributes) { given, _ in given }
        }
    }
}

/// A dictionary's entries: its keys as strings, and its values in the same order, in two
/// arrays rather than one of pairs, which every pass over them copied pair by pair (the
/// values as they came, so that a pass reads only the values it uses).
struct QueryEntries {
    var keys: [String]
    var values: [Any]

    /// The same entries in key order.
    func sortedByKey() -> QueryEntries {
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        return QueryEntries(keys: order.map { keys[$0] }, values: order.map { values[$0] })
    }
}

package enum QueryParser {
    /// Reads a dictionary's entries with String keys. A key of another type is errSecParam.
    static func entries(of dictionary: NSDictionary) throws(KeychainError) -> QueryEntries {
        var entries = QueryEntries(keys: [], values: [])
        var nonStringKey = false
        if type(of: dictionary) == NSDictionary.self || type(of: dictionary) == NSMutableDictionary.self {
            // These two hand over the stored objects as they are, in one order (both walk
            // the same storage). Enumeration would first turn every value into its Swift
            // type, and Linux Foundation turns NSData into Data a byte at a time: 0.45 ms
            // for a 4 KiB secret, measured. FoundationValues reads NSData with one copy.
            let keys = dictionary.allKeys
            entries.keys.reserveCapacity(keys.count)
            for key in keys {
                guard let key = FoundationValues.string(key) else { nonStringKey = true; break }
                entries.keys.append(key)
            }
            entries.values = dictionary.allValues
        } else {
            // A subclass may order its keys and values as it likes: take them in pairs.
            entries.keys.reserveCapacity(dictionary.count)
            entries.values.reserveCapacity(dictionary.count)
            dictionary.enumerateKeysAndObjects { key, value, stop in
                guard let key = FoundationValues.string(key) else {
                    nonStringKey = true
                    stop.pointee = true
                    return
                }
                entries.keys.append(key)
                entries.values.append(value)
            }
        }
        if nonStringKey { throw .param("a dictionary key is not a string") }
        return entries
    }

    /// Runs `parse` over the entries in the dictionary's order, and when that fails, again
    /// in key order: of several wrong keys, the status names the first in key order, as a
    /// dictionary's order is not the caller's to choose. Whether a parse fails does not
    /// depend on the order, and sorting every call's keys first cost a twentieth of a find.
    private static func inKeyOrderOnFailure<T>(
        _ entries: QueryEntries, _ parse: (QueryEntries) throws(KeychainError) -> T
    ) throws(KeychainError) -> T {
        do {
            return try parse(entries)
        } catch {
            return try parse(entries.sortedByKey())
        }
    }

    /// Parses the query of one of the four calls.
    package static func parse(_ dictionary: NSDictionary, for call: SecItemCall) throws(KeychainError) -> ParsedQuery {
        try inKeyOrderOnFailure(try entries(of: dictionary)) { entries throws(KeychainError) in
            try parse(entries, for: call)
        }
    }

    /// Parses the query of one of the four calls given as a Swift dictionary: the same
    /// entries as its `NSDictionary`, read without bridging.
    package static func parse(_ dictionary: [String: Any], for call: SecItemCall) throws(KeychainError) -> ParsedQuery {
        try inKeyOrderOnFailure(QueryEntries(keys: Array(dictionary.keys), values: Array(dictionary.values))) {
            entries throws(KeychainError) in
            try parse(entries, for: call)
        }
    }

    private static func parse(_ entries: QueryEntries, for call: SecItemCall) throws(KeychainError) -> ParsedQuery {
        // The three entries that decide how the others are read, found in one pass, which
        // also notes the two keys that cannot be given together and counts the attributes.
        var classIndex: Int?
        var referenceIndex: Int?
        var valueRefIndex: Int?
        var namesAccessControl = false
        var namesAccessible = false
        var attributeCount = 0
        for index in entries.keys.indices {
            let key = entries.keys[index]
            if key.utf8.count == 4 { attributeCount += 1 }
            switch key {
            case QueryKey.itemClass: classIndex = index
            case QueryKey.valuePersistentRef: referenceIndex = index
            case QueryKey.valueRef: valueRefIndex = index
            case AccessControlAttributes.code: namesAccessControl = true
            case AccessControlAttributes.accessibleCode: namesAccessible = true
            default: continue
            }
        }
        let classValue = classIndex.map { entries.values[$0] }
        let referenceValue = referenceIndex.map { entries.values[$0] }
        let valueRefValue = valueRefIndex.map { entries.values[$0] }
        let reference = try referenceValue.map { value throws(KeychainError) in
            guard let data = FoundationValues.data(value), let reference = PersistentReference(data: data) else {
                throw KeychainError.param("kSecValuePersistentRef takes a 20-byte persistent reference")
            }
            return reference
        }
        let valueReference = try valueRefValue.map { value throws(KeychainError) in try ItemReference(value) }
        var query = ParsedQuery(itemClass: try itemClass(classValue, reference: reference, valueReference: valueReference))
        // Room for the attributes named (an access control sets two), made at once rather
        // than grown from the empty dictionary.
        query.attributes = .withCapacity(attributeCount + (namesAccessControl ? 1 : 0))
        let schema = query.itemClass.schema
        var namesOtherAttributes = false
        try AccessControlAttributes.checkNotBoth(namesAccessControl: namesAccessControl, namesAccessible: namesAccessible)

        for index in entries.keys.indices {
            let key = entries.keys[index]
            let value = entries.values[index]
            switch key {
            case QueryKey.itemClass:
                continue
            case _ where key.utf8.count == 4:
                let attribute = try schema.attribute(key)
                if attribute.kind == .synchronizable {
                    query.synchronizable = try synchronizableFilter(value)
                } else if attribute.kind == .accessControl {
                    try AccessControlAttributes.apply(value, to: &query.attributes)
                    namesOtherAttributes = true
                } else if attribute.kind != .ignored {
                    query.attributes[key] = try FoundationValues.attributeValue(value, key: key)
                    namesOtherAttributes = true
                }
            case _ where key.hasPrefix(QueryKey.matchPrefix):
                // Code written for macOS deletes with kSecMatchLimitAll, which changes nothing
                // there; any other kSecMatch key in a delete is errSecParam.
                if call == .delete, key == QueryKey.matchLimit, FoundationValues.string(value) == QueryKey.matchLimitAll {
                    continue
                }
                // Apple's Add reports success without adding when given a match key; we refuse.
                guard call == .copyMatching else { throw .param("'\(key)' is only for searches") }
                if key == QueryKey.matchLimit { query.limit = try matchLimit(value) }
                if key == QueryKey.matchItemList { query.itemList = try ItemList(value, key: key) }
            case _ where key.hasPrefix(QueryKey.returnPrefix):
                let option: ReturnOptions = switch key {
                case QueryKey.returnData: .data
                case QueryKey.returnAttributes: .attributes
                case QueryKey.returnRef: .reference
                case QueryKey.returnPersistentRef: .persistentReference
                default: throw .param("unknown return key '\(key)'")
                }
                guard call == .add || call == .copyMatching else {
                    throw .param("'\(key)' is not accepted by update or delete")
                }
                if try FoundationValues.flag(value, key: key) { query.returning.insert(option) }
            case QueryKey.useKeychain:
                guard let keychain = value as? SecKeychain else { throw .param("kSecUseKeychain takes a SecKeychain") }
                query.keychain = keychain
            case QueryKey.useItemList where call == .copyMatching || call == .delete:
                query.itemList = try ItemList(value, key: key)
            case _ where AuthenticationOptions.keys.contains(key):
                try query.authentication.read(value, for: key)
            case _ where key.hasPrefix(QueryKey.usePrefix):
                guard QueryKey.ignoredUseKeys.contains(key) else { throw .param("unknown use key '\(key)'") }
            case QueryKey.valueData:
                if call == .add {
                    guard let data = FoundationValues.data(value) else { throw .param("kSecValueData takes Data") }
                    query.valueData = data
                }
            case QueryKey.valuePersistentRef:
                if call == .add { throw .param("an add cannot name a persistent reference") }
                query.persistentReference = reference
            case QueryKey.valueRef:
                continue // read above
            default:
                throw .param("unknown key '\(key)'")
            }
        }
        if query.persistentReference != nil && namesOtherAttributes {
            throw .param("a persistent reference cannot be combined with attributes")
        }
        if let valueReference {
            if query.persistentReference != nil {
                throw .param("kSecValueRef cannot be combined with a persistent reference")
            }
            try query.merge(valueReference, for: call)
        }
        return query
    }

    /// Parses `attributesToUpdate` of SecItemUpdate: attributes of the class and `v_Data`
    /// only (any other key is errSecNoSuchAttr; null, or `v_Data` that is not Data, errSecParam).
    package static func parseChanges(_ dictionary: NSDictionary, for itemClass: ItemClass) throws(KeychainError) -> ItemChanges {
        try inKeyOrderOnFailure(try entries(of: dictionary)) { entries throws(KeychainError) in
            try parseChanges(entries, for: itemClass)
        }
    }

    private static func parseChanges(_ entries: QueryEntries, for itemClass: ItemClass) throws(KeychainError) -> ItemChanges {
        var changes = ItemChanges()
        try AccessControlAttributes.checkNotBoth(entries.keys)
        for (key, value) in zip(entries.keys, entries.values) {
            if key == QueryKey.valueData {
                guard let data = FoundationValues.data(value) else { throw .param("kSecValueData takes Data") }
                changes.data = data
                continue
            }
            guard key.utf8.count == 4 else { throw .noSuchAttribute(key) }
            let attribute = try itemClass.schema.attribute(key)
            if attribute.kind == .accessControl {
                try AccessControlAttributes.apply(value, to: &changes.attributes)
            } else if attribute.kind == .synchronizable {
                switch try synchronizableFilter(value) {
                case .notSynchronizable: changes.attributes[key] = .number(0)
                case .synchronizable: changes.attributes[key] = .number(1)
                case .any: throw .param("an update cannot set kSecAttrSynchronizableAny")
                }
            } else {
                changes.attributes[key] = try FoundationValues.attributeValue(value, key: key)
            }
        }
        return changes
    }

    /// The class comes from kSecClass, from a persistent reference, or (as Apple
    /// infers it) from the object given with kSecValueRef, which must then agree.
    private static func itemClass(_ classValue: Any?, reference: PersistentReference?,
                                  valueReference: ItemReference?) throws(KeychainError) -> ItemClass {
        guard let classValue else {
            if let valueReference { return valueReference.itemClass }
            guard let reference else { throw .param("the query names no kSecClass") }
            return reference.itemClass
        }
        guard let name = FoundationValues.string(classValue) else { throw .param("kSecClass takes a string") }
        guard let itemClass = ItemClass(rawValue: name) else { throw .noSuchClass }
        if let valueReference, valueReference.itemClass != itemClass {
            throw .param("kSecValueRef holds an object of another class than kSecClass names")
        }
        return itemClass
    }

    /// `kSecMatchLimit`: `m_LimitOne`, `m_LimitAll`, or a number (-1: no limit); anything
    /// else is errSecParam.
    private static func matchLimit(_ value: Any) throws(KeychainError) -> MatchLimit {
        if let name = FoundationValues.string(value) {
            switch name {
            case QueryKey.matchLimitOne: return .one
            case QueryKey.matchLimitAll: return .all
            default: throw .param("kSecMatchLimit takes kSecMatchLimitOne, kSecMatchLimitAll or a number")
            }
        }
        if !FoundationValues.isBoolean(value), let number = value as? NSNumber {
            let count = number.int64Value
            if count == -1 { return .all }
            if count >= 1, Double(count) == number.doubleValue { return .count(Int(clamping: count)) }
        }
        throw .param("kSecMatchLimit takes kSecMatchLimitOne, kSecMatchLimitAll or a positive number")
    }

    /// A Bool, a Number, "0" or "1", or kSecAttrSynchronizableAny.
    private static func synchronizableFilter(_ value: Any) throws(KeychainError) -> SynchronizableFilter {
        if let string = FoundationValues.string(value) {
            switch string {
            case QueryKey.synchronizableAny: return .any
            case "0": return .notSynchronizable
            case "1": return .synchronizable
            default: throw .param("kSecAttrSynchronizable takes a boolean, 0, 1 or kSecAttrSynchronizableAny")
            }
        }
        if let number = value as? NSNumber {
            return number.int64Value == 0 ? .notSynchronizable : .synchronizable
        }
        throw .param("kSecAttrSynchronizable takes a boolean, 0, 1 or kSecAttrSynchronizableAny")
    }
}
