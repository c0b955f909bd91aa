/// How a ``Keychain`` writes items: accessibility, synchronization, label, comment and extra
/// attributes. A value: change its properties (`options.label = "API token"`), or use
/// ``Keychain``'s modifiers, which return copies with one changed.
public struct KeychainOptions: Sendable, Hashable {
    /// When the items' secrets can be read. Written on every save, so saving an existing
    /// item also moves it to this accessibility.
    public var accessibility: Accessibility
    /// Whether items are synchronizable (`kSecAttrSynchronizable`). Reads, saves and
    /// ``Keychain/allKeys()`` see only items with this value; ``Keychain/remove(_:)`` and
    /// ``Keychain/removeAll()`` remove both kinds.
    public var synchronizable: Bool
    /// The label (`kSecAttrLabel`) of saved items; nil leaves it unset on add and unchanged
    /// on update.
    public var label: String?
    /// The comment (`kSecAttrComment`) of saved items; nil leaves it unset on add and
    /// unchanged on update.
    public var comment: String?
    /// Further attributes written with every save, keyed by their four-character names
    /// (`kSecAttrDescription as String`). Keys the ``Keychain`` manages itself (class,
    /// account, service, server, protocol, authentication type, port, path, access group,
    /// synchronizable, accessibility, label, comment) are rejected with `errSecParam` when
    /// saving; so are keys that are not four characters long.
    public var attributes: [String: Keychain.AttributeValue]

    /// Options with the given values; the defaults are those of Keychain Services.
    public init(
        accessibility: Accessibility = .whenUnlocked,
        synchronizable: Bool = false,
        label: String? = nil,
        comment: String? = nil,
        attributes: [String: Keychain.AttributeValue] = [:]
    ) {
        self.accessibility = accessibility
        self.synchronizable = synchronizable
        self.label = label
        self.comment = comment
        self.attributes = attributes
    }
}
