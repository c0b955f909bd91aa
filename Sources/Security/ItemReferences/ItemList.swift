import Foundation
@_implementationOnly import KeychainCore

/// `kSecMatchItemList` (searches) and `kSecUseItemList` (searches and deletes): a list of
/// keys, certificates, identities or persistent references that a query's matches must be
/// among. Each entry narrows the query as naming it alone would; the results of the
/// entries are joined, each item once.
struct ItemList {
    enum Entry {
        case reference(ItemReference)
        case persistentReference(PersistentReference)
    }

    let entries: [Entry]

    /// Reads the list; errSecParam for anything but an array of such entries.
    init(_ value: Any, key: String) throws(KeychainError) {
        guard let array = value as? [Any] ?? (value as? NSArray).map({ $0.map { $0 } }) else {
            throw .param("'\(key)' takes an array of keys, certificates, identities or persistent references")
        }
        var entries: [Entry] = []
        for element in array {
            if let data = FoundationValues.data(element) {
                guard let reference = PersistentReference(data: data) else {
                    throw .param("'\(key)' holds data that is not a persistent reference")
                }
                entries.append(.persistentReference(reference))
            } else {
                entries.append(.reference(try ItemReference(element)))
            }
        }
        self.entries = entries
    }

    /// The items the narrowed queries find, each once, in the order of the entries, up to
    /// `limit`; errSecItemNotFound when none. One query (no list) is found as it is.
    static func joined<Found>(_ queries: [ParsedQuery], limit: MatchLimit,
                              find: (ParsedQuery) throws(KeychainError) -> [Found],
                              reference: (Found) -> PersistentReference) throws(KeychainError) -> [Found] {
        if queries.count == 1, let query = queries.first { return try find(query) }
        var found: [Found] = []
        var seen = Set<PersistentReference>()
        for query in queries {
            if case .count(let count) = limit, found.count >= count { break }
            do {
                for item in try find(query) where seen.insert(reference(item)).inserted { found.append(item) }
            } catch .itemNotFound {}
        }
        if case .count(let count) = limit { found = Array(found.prefix(count)) }
        guard !found.isEmpty else { throw .itemNotFound }
        return found
    }
}

extension ParsedQuery {
    /// The query narrowed to each entry of its item list that it can match: an entry of
    /// another class, or whose attributes contradict the query's, matches nothing and is
    /// left out. Without a list, the query itself.
    func narrowedByItemList() throws(KeychainError) -> [ParsedQuery] {
        guard let itemList else { return [self] }
        var queries: [ParsedQuery] = []
        for entry in itemList.entries {
            var narrowed = self
            narrowed.itemList = nil
            switch entry {
            case .persistentReference(let reference):
                guard reference.itemClass == itemClass,
                      persistentReference == nil || persistentReference == reference else { continue }
                narrowed.persistentReference = reference
            case .reference(let reference):
                guard reference.itemClass == itemClass,
                      try narrowed.narrow(to: reference.identifyingAttributes) else { continue }
            }
            queries.append(narrowed)
        }
        return queries
    }

    /// Adds `required` to the attributes; false when the query names one of them with
    /// other bytes, so that both cannot hold.
    private mutating func narrow(to required: [String: AttributeValue]) throws(KeychainError) -> Bool {
        let schema = itemClass.schema
        for (code, value) in required {
            if let given = attributes[code] {
                let attribute = try schema.attribute(code)
                guard try attribute.canonicalBytes(of: given) == attribute.canonicalBytes(of: value) else { return false }
            }
            attributes[code] = value
        }
        return true
    }
}
