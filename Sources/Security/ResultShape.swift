import Foundation
@_implementationOnly import KeychainCore

/// The objects SecItemAdd and SecItemCopyMatching hand back: Data, a dictionary, or an array
/// of them, by the return keys and the limit.
enum ResultShape {
    /// The result for found items: one object when `single`, else an array of them; nil
    /// when nothing was asked for. `itemObject` makes the key, certificate or identity of
    /// an item for `kSecReturnRef`; an item it cannot make one for is left out of a result
    /// of references alone, as Apple's SecItem.c does. By default the objects are
    /// ``ItemObject``'s, and a Secure Enclave-style key among them keeps `authentication`
    /// (the search's `kSecUseAuthenticationContext`, `kSecUseOperationPrompt` and
    /// `kSecUseAuthenticationUI`) for when it is used.
    static func object(for items: [FoundItem], returning: ReturnOptions, single: Bool,
                       authentication: AuthenticationOptions = AuthenticationOptions(),
                       itemObject: ((FoundItem) -> AnyObject?)? = nil) -> CFTypeRef? {
        guard !returning.isEmpty else { return nil }
        let itemObject = itemObject ?? { ItemObject.make($0, authentication: authentication) }
        if single, let item = items.first { return object(for: item, returning: returning, itemObject: itemObject) }
        return items.compactMap { object(for: $0, returning: returning, itemObject: itemObject) } as NSArray
    }

    /// Data alone for data or a persistent reference alone; the object alone for a key,
    /// certificate or identity reference alone; otherwise a dictionary with the attributes
    /// (and `class` and `v_Ref` for a reference) and `v_Data` / `v_PersistentRef` merged in.
    private static func object(for item: FoundItem, returning: ReturnOptions,
                               itemObject: (FoundItem) -> AnyObject?) -> AnyObject? {
        // A Secure Enclave-style key's data never leaves: no key material, as Apple's token keys.
        let data = SecureEnclaveKeyData.returnable(item.data, of: item.persistentReference.itemClass)
        if returning == .data { return ResultData(data ?? Data()) }
        if returning == .persistentReference { return ResultData(item.persistentReference.data) }
        let itemClass = item.persistentReference.itemClass
        // Passwords have no object: their reference is their attributes and class.
        let hasObject = itemClass != .genericPassword && itemClass != .internetPassword
        let object = returning.contains(.reference) && hasObject ? itemObject(item) : nil
        if returning == .reference && hasObject { return object }
        var dictionary: [String: Any] = [:]
        // The store gives a record only when attributes or a reference were asked for. The
        // attributes (with the class, for a reference) come with an object only when asked
        // for, as SecItem.c's makeResult shapes them.
        if let record = item.record, returning.contains(.attributes) || !hasObject {
            dictionary = attributes(of: record)
            if returning.contains(.reference) { dictionary[QueryKey.itemClass] = itemClass.rawValue }
        }
        if let object { dictionary[QueryKey.valueRef] = object }
        // As Apple's regression test si-80-empty-data checks: an item without data (the store keeps it as empty
        // data) has no `v_Data` key.
        if returning.contains(.data), let data, !data.isEmpty {
            dictionary[QueryKey.valueData] = ResultData(data)
        }
        if returning.contains(.persistentReference) {
            dictionary[QueryKey.valuePersistentRef] = ResultData(item.persistentReference.data)
        }
        return dictionary as NSDictionary
    }

    /// The attributes that are set, with `acct` always present on passwords.
    /// Attributes Apple keeps as data come back as Data, whatever type they were given in.
    static func attributes(of record: ItemRecord) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        dictionary.reserveCapacity(record.attributes.count + 1)
        let schema = record.itemClass.schema
        for (code, value) in record.attributes {
            if code == AccessControlAttributes.code {
                // As Apple returns it: an access-control object, with the item's protection.
                dictionary[code] = AccessControlAttributes.accessControl(of: record)
            } else if let attribute = schema.attributes[code], attribute.kind == .data {
                dictionary[code] = ResultData((try? attribute.canonicalBytes(of: value)) ?? Data())
            } else {
                dictionary[code] = FoundationValues.object(value)
            }
        }
        if schema.attributes[QueryKey.account] != nil, dictionary[QueryKey.account] == nil {
            dictionary[QueryKey.account] = ""
        }
        return dictionary
    }
}
