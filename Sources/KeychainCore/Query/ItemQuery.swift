import Foundation

/// How many matches a search returns (`kSecMatchLimit`: one, all, or a number; -1 is all).
package enum MatchLimit: Sendable, Hashable {
    case count(Int)
    case all

    /// The default is one.
    package static let one = MatchLimit.count(1)
}

/// What a search or an add hands back (`kSecReturn*`).
package struct ReturnOptions: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    package static let data = ReturnOptions(rawValue: 1)
    package static let attributes = ReturnOptions(rawValue: 2)
    /// An object reference: for passwords, the attributes and the class; for keys and
    /// certificates, the object the `Security` layer makes from the attributes and data.
    package static let reference = ReturnOptions(rawValue: 4)
    package static let persistentReference = ReturnOptions(rawValue: 8)
}

/// The items a search, update or delete covers: equality on attributes, the
/// synchronizable filter, and optionally one persistent reference.
package struct ItemQuery: Sendable {
    package var itemClass: ItemClass
    /// Attributes every match must equal, by code (`agrp` narrows to one access group).
    package var attributes: [String: AttributeValue]
    package var synchronizable: SynchronizableFilter
    /// When set, the query names this one item; the synchronizable filter is ignored.
    package var persistentReference: PersistentReference?
    package var limit: MatchLimit
    package var returning: ReturnOptions

    package init(
        itemClass: ItemClass,
        attributes: [String: AttributeValue] = [:],
        synchronizable: SynchronizableFilter = .notSynchronizable,
        persistentReference: PersistentReference? = nil,
        limit: MatchLimit = .one,
        returning: ReturnOptions = []
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.synchronizable = synchronizable
        self.persistentReference = persistentReference
        self.limit = limit
        self.returning = returning
    }
}

/// An item to add: its attributes (including, optionally, `agrp` and `pdmn`), whether it is
/// synchronizable, and its secret.
package struct NewItem: Sendable {
    package var itemClass: ItemClass
    package var attributes: [String: AttributeValue]
    package var isSynchronizable: Bool
    package var data: Data?

    package init(itemClass: ItemClass, attributes: [String: AttributeValue] = [:],
                isSynchronizable: Bool = false, data: Data? = nil) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.isSynchronizable = isSynchronizable
        self.data = data
    }
}

/// The changes an update applies to every match: attributes (`sync` as 0 or 1) and,
/// optionally, a new secret.
package struct ItemChanges: Sendable {
    package var attributes: [String: AttributeValue]
    package var data: Data?
    /// When set, what each matched item stores as its secret, given the item before and after
    /// the change: nil keeps its secret. For secrets sealed per item (an application
    /// password's); it runs inside the write, so it must not ask anyone anything.
    package var secretForItem: (@Sendable (_ before: ItemRecord, _ after: ItemRecord, _ data: Data?) throws(KeychainError) -> Data?)?

    package init(attributes: [String: AttributeValue] = [:], data: Data? = nil) {
        self.attributes = attributes
        self.data = data
    }

    /// The secret an update stores for one item, or nil to keep the one it has.
    func secret(for before: ItemRecord, becoming after: ItemRecord) throws(KeychainError) -> Data? {
        guard let secretForItem else { return data }
        return try secretForItem(before, after, data)
    }
}
