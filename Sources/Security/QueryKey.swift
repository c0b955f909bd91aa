/// The `kSec...` names the query parser and the result shapes use, as Swift strings made
/// once from the module's constants: one spelling of each, in SecConstants.swift. Every key
/// of every call is compared with them, and bridging a `CFString` at each comparison would
/// copy it each time.
enum QueryKey {
    static let itemClass = kSecClass as String
    static let account = kSecAttrAccount as String
    static let matchLimit = kSecMatchLimit as String
    static let matchLimitOne = kSecMatchLimitOne as String
    static let matchLimitAll = kSecMatchLimitAll as String
    static let matchItemList = kSecMatchItemList as String
    static let useItemList = kSecUseItemList as String
    static let returnData = kSecReturnData as String
    static let returnAttributes = kSecReturnAttributes as String
    static let returnRef = kSecReturnRef as String
    static let returnPersistentRef = kSecReturnPersistentRef as String
    static let useKeychain = kSecUseKeychain as String
    static let valueData = kSecValueData as String
    static let valueRef = kSecValueRef as String
    static let valuePersistentRef = kSecValuePersistentRef as String
    static let synchronizableAny = kSecAttrSynchronizableAny as String

    /// The `kSecUse...` keys a query may carry and that change nothing in a call
    /// (`kSecUseItemList` limits searches and deletes, and changes nothing in the others).
    static let ignoredUseKeys: Set<String> = [kSecUseItemList as String]

    /// Apple routes a query's keys by prefix: `m_` match options, `r_` return options, `u_`
    /// use options; a four-character key is an attribute.
    static let matchPrefix = "m_"
    static let returnPrefix = "r_"
    static let usePrefix = "u_"
}
