/// Which items a query covers by their `kSecAttrSynchronizable` value: absent means only
/// items that do not sync, true only those that do, `kSecAttrSynchronizableAny` both.
package enum SynchronizableFilter: Sendable, Hashable {
    /// Only items that are not synchronizable: the default when the attribute is absent.
    case notSynchronizable
    /// Only synchronizable items.
    case synchronizable
    /// Both (`kSecAttrSynchronizableAny`).
    case any

    /// The value a new item gets from this filter; `any` adds a non-synchronizable item.
    package var valueForNewItem: Bool { self == .synchronizable }
}
