import Security

extension KeychainItemWrapper {
    /// The keys of a wrapper's item by name, so that code needs no `import Security` for
    /// the `kSec` constants: `try pin.setObject("pin", forKey: .account)`.
    ///
    /// Each stands for the constant in its documentation; ``name`` is that constant's string,
    /// so `object(forKey: .account)` and `object(forKey: kSecAttrAccount)` are the same call.
    public enum Key: Sendable, Hashable, CaseIterable {
        /// The secret (`kSecValueData`): a `String`, or `Data`.
        case valueData
        /// The account (`kSecAttrAccount`).
        case account
        /// The service (`kSecAttrService`).
        case service
        /// The label (`kSecAttrLabel`).
        case label
        /// The description (`kSecAttrDescription`).
        case description
        /// The comment (`kSecAttrComment`).
        case comment
        /// The creator code (`kSecAttrCreator`), a number.
        case creator
        /// The type code (`kSecAttrType`), a number.
        case type
        /// Whether the item is invisible (`kSecAttrIsInvisible`).
        case isInvisible
        /// Whether the item is negative (`kSecAttrIsNegative`).
        case isNegative
        /// When the secret can be read (`kSecAttrAccessible`): an ``Accessibility``, or its
        /// `kSecAttrAccessible...` constant.
        case accessible
        /// The access group (`kSecAttrAccessGroup`).
        case accessGroup
        /// The identifier the wrapper finds its item by (`kSecAttrGeneric`); read-only.
        case generic
        /// When the item was added (`kSecAttrCreationDate`); read-only.
        case creationDate
        /// When the item was last changed (`kSecAttrModificationDate`); read-only.
        case modificationDate

        /// The constant's string, as the `String` overloads take it.
        public var name: String {
            let constant: CFString = switch self {
            case .valueData: kSecValueData
            case .account: kSecAttrAccount
            case .service: kSecAttrService
            case .label: kSecAttrLabel
            case .description: kSecAttrDescription
            case .comment: kSecAttrComment
            case .creator: kSecAttrCreator
            case .type: kSecAttrType
            case .isInvisible: kSecAttrIsInvisible
            case .isNegative: kSecAttrIsNegative
            case .accessible: kSecAttrAccessible
            case .accessGroup: kSecAttrAccessGroup
            case .generic: kSecAttrGeneric
            case .creationDate: kSecAttrCreationDate
            case .modificationDate: kSecAttrModificationDate
            }
            return constant as String
        }
    }

    /// Sets one attribute, or the secret, named by its ``Key``: `setObject("1234", forKey: .valueData)`.
    /// Behaves as the overload that takes the key as a `String`.
    public func setObject(_ object: Any?, forKey key: Key) throws(KeychainError) {
        try setObject(object, forKey: key.name)
    }

    /// The value of an attribute, or the secret, named by its ``Key``: `object(forKey: .account)`.
    /// Behaves as the overload that takes the key as a `String`.
    public func object(forKey key: Key) -> Any? {
        object(forKey: key.name)
    }
}
