import Security

extension KeychainError {
    /// A Keychain Services status, by name: what `catch KeychainError.itemNotFound` and
    /// `switch error.code` match.
    ///
    /// A struct rather than an enum because Keychain Services has hundreds of statuses and
    /// may add more: any `OSStatus` is a code (``rawValue``), and the ones code commonly
    /// reacts to have names. Two codes are equal when their statuses are.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The `OSStatus`.
        public let rawValue: OSStatus

        /// The code of a status.
        public init(rawValue: OSStatus) {
            self.rawValue = rawValue
        }

        /// `errSecItemNotFound`: no item matched (reads return nil instead of throwing it).
        public static let itemNotFound = Code(rawValue: errSecItemNotFound)
        /// `errSecDuplicateItem`: an item with the same identity exists.
        public static let duplicateItem = Code(rawValue: errSecDuplicateItem)
        /// `errSecParam`: a parameter or attribute is not valid.
        public static let param = Code(rawValue: errSecParam)
        /// `errSecDecode`: stored bytes are not the type asked for, or cannot be decoded.
        public static let decode = Code(rawValue: errSecDecode)
        /// `errSecInteractionNotAllowed`: the item cannot be read now (the keychain is locked).
        public static let interactionNotAllowed = Code(rawValue: errSecInteractionNotAllowed)
        /// `errSecMissingEntitlement`: the access group is not one the program holds.
        public static let missingEntitlement = Code(rawValue: errSecMissingEntitlement)
        /// `errSecUserCanceled`: the operation was cancelled.
        public static let userCanceled = Code(rawValue: errSecUserCanceled)
        /// `errSecAuthFailed`: a password was wrong.
        public static let authFailed = Code(rawValue: errSecAuthFailed)
        /// `errSecNoSuchKeychain`: the keychain file named does not exist.
        public static let noSuchKeychain = Code(rawValue: errSecNoSuchKeychain)
        /// `errSecNoSuchAttr`: an attribute does not belong to the item's class.
        public static let noSuchAttribute = Code(rawValue: errSecNoSuchAttr)

        /// The status number.
        public var description: String { "\(rawValue)" }

        /// Whether an error is a ``KeychainError`` with this code: what makes
        /// `catch KeychainError.itemNotFound` work for any thrown error.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? KeychainError)?.status == pattern.rawValue
        }
    }

    // The codes as members of the error type itself, so that a pattern reads
    // `catch KeychainError.interactionNotAllowed`, as `catch CocoaError.fileNoSuchFile` does.

    /// `errSecItemNotFound`; see ``Code/itemNotFound``.
    public static var itemNotFound: Code { .itemNotFound }
    /// `errSecDuplicateItem`; see ``Code/duplicateItem``.
    public static var duplicateItem: Code { .duplicateItem }
    /// `errSecParam`; see ``Code/param``.
    public static var param: Code { .param }
    /// `errSecDecode`; see ``Code/decode``.
    public static var decode: Code { .decode }
    /// `errSecInteractionNotAllowed`; see ``Code/interactionNotAllowed``.
    public static var interactionNotAllowed: Code { .interactionNotAllowed }
    /// `errSecMissingEntitlement`; see ``Code/missingEntitlement``.
    public static var missingEntitlement: Code { .missingEntitlement }
    /// `errSecUserCanceled`; see ``Code/userCanceled``.
    public static var userCanceled: Code { .userCanceled }
    /// `errSecAuthFailed`; see ``Code/authFailed``.
    public static var authFailed: Code { .authFailed }
    /// `errSecNoSuchKeychain`; see ``Code/noSuchKeychain``.
    public static var noSuchKeychain: Code { .noSuchKeychain }
    /// `errSecNoSuchAttr`; see ``Code/noSuchAttribute``.
    public static var noSuchAttribute: Code { .noSuchAttribute }
}
