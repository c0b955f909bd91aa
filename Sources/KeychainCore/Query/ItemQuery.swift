import Foundation

/// How many matches a search returns (`kSecMatchLimit`, rule 7).
public enum MatchLimit: Sendable, Hashable {
    case count(Int)
    case all

    /// The default is one (rule 19).
    public static let one = MatchLimit.count(1)
}

/// What a search or an add hands back (`kSecReturn*`).
public struct ReturnOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let data = ReturnOptions(rawValue: 1)
    public static let attributes = ReturnOptions(rawValue: 2)
    /// An object reference: for passwords, the attributes and the class.
    public static let reference = ReturnOptions(rawValue: 4)
    public static let persistentReference = ReturnOptions(rawValue: 8)
}

/// The items a search, update or delete covers: equality on attributes, the
/// synchronizable filter, and optionally one persistent reference.
public struct ItemQuery: Sendable {
    public var itemClass: ItemClass
    /// Attributes every match must equal, by code (`agrp` narrows to one access group).
    public var attributes: [String: AttributeValue]
    public var synchronizable: SynchronizableFilter
    /// When set, the query names this one item; the synchronizable filter is ignored.
    public var persistentReference: PersistentReference?
    public var limit: MatchLimit
    public var returning: ReturnOptions

    public init(
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
public struct NewItem: Sendable {
    public var itemClass: ItemClass
    public var attributes: [String: AttributeValue]
    public var isSynchronizable: Bool
    public var data: Data?

    public init(itemClass: ItemClass, attributes: [String: AttributeValue] = [:],
                isSynchronizable: Bool = false, data: Data? = nil) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.isSynchronizable = isSynchronizable
        self.data = data
    }
}

/// The changes an update applies to every match: attributes (`sync` as 0 or 1) and,
/// optionally, a new secret.
public struct ItemChanges: Sendable {
    public var attributes: [String: AttributeValue]
    public var data: Data?

    public init(attributes: [String: AttributeValue] = [:], data: Data? = nil) {
        self.attributes = attributes
        self.data = data
    }
}
