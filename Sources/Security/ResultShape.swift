import Foundation
@_implementationOnly import KeychainCore

/// The objects SecItemAdd and SecItemCopyMatching hand back (rules 17, 19, 22, 23).
enum ResultShape {
    /// The result for found items: one object when `single`, else an array of them; nil
    /// when nothing was asked for.
    static func object(for items: [FoundItem], returning: ReturnOptions, single: Bool) -> CFTypeRef? {
        guard !returning.isEmpty else { return nil }
        if single, let item = items.first { return object(for: item, returning: returning) }
        return items.map { object(for: $0, returning: returning) } as NSArray
    }

    /// Data alone for data or a persistent reference alone; otherwise a dictionary with the
    /// attributes (and `class` for a reference) and `v_Data` / `v_PersistentRef` merged in.
    private static func object(for item: FoundItem, returning: ReturnOptions) -> AnyObject {
        if returning == .data { return ResultData(item.data ?? Data()) }
        if returning == .persistentReference { return ResultData(item.persistentReference.data) }
        var dictionary: [String: Any] = [:]
        // The store gives a record only when attributes or a reference were asked for.
        if let record = item.record {
            dictionary = attributes(of: record)
            if returning.contains(.reference) { dictionary[QueryKey.itemClass] = record.itemClass.rawValue }
        }
        if returning.contains(.data) { dictionary[QueryKey.valueData] = ResultData(item.data ?? Data()) }
        if returning.contains(.persistentReference) {
            dictionary[QueryKey.valuePersistentRef] = ResultData(item.persistentReference.data)
        }
        return dictionary as NSDictionary
    }

    /// Rule 23: the attributes that are set, with `acct` always present on passwords.
    static func attributes(of record: ItemRecord) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        dictionary.reserveCapacity(record.attributes.count + 1)
        for (code, value) in record.attributes {
            dictionary[code] = FoundationValues.object(value)
        }
        if record.itemClass.schema.attributes[QueryKey.account] != nil, dictionary[QueryKey.account] == nil {
            dictionary[QueryKey.account] = ""
        }
        return dictionary
    }
}
