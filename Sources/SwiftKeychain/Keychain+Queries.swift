import Foundation
import Security

/// Which items of a ``Keychain`` a query covers by `kSecAttrSynchronizable`.
enum SynchronizableScope {
    /// Only items whose flag equals the keychain's option.
    case configured
    /// Both synchronizable and other items (`kSecAttrSynchronizableAny`).
    case any
}

// The dictionaries this module passes to the SecItem functions.
extension Keychain {
    /// Attributes the `Keychain` sets itself, which extra attributes may not override.
    static let managedAttributes: Set<String> = [
        kSecClass, kSecAttrAccount, kSecAttrService, kSecAttrServer, kSecAttrProtocol,
        kSecAttrAuthenticationType, kSecAttrPort, kSecAttrPath, kSecAttrAccessGroup,
        kSecAttrSynchronizable, kSecAttrAccessible, kSecAttrLabel, kSecAttrComment,
    ].map { $0 as String }.reduce(into: []) { names, name in names.insert(name) }

    var itemClass: CFString {
        switch location {
        case .genericPassword: kSecClassGenericPassword
        case .internetPassword: kSecClassInternetPassword
        }
    }

    /// The query for all of this keychain's items.
    func baseQuery(synchronizable scope: SynchronizableScope) throws(KeychainError) -> [String: Any] {
        var query: [String: Any] = [kSecClass as String: itemClass]
        switch location {
        case .genericPassword(let service):
            query[kSecAttrService as String] = service
        case .internetPassword(let internetPassword):
            guard (0...65535).contains(internetPassword.port) else {
                throw KeychainError(status: errSecParam, reason: "a port must be in 0...65535")
            }
            query[kSecAttrServer as String] = internetPassword.server
            query[kSecAttrProtocol as String] = internetPassword.protocol.rawValue
            query[kSecAttrAuthenticationType as String] = internetPassword.authenticationType.rawValue
            query[kSecAttrPort as String] = internetPassword.port
            query[kSecAttrPath as String] = internetPassword.path
        }
        if let accessGroup {
            query[kSecAttrAccessGroup as String] = accessGroup
        }
        switch scope {
        case .configured: query[kSecAttrSynchronizable as String] = options.synchronizable
        case .any: query[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny
        }
        try Platform.target(&query, file: file)
        return query
    }

    /// The query for the one item of a key.
    func itemQuery(forKey key: String, synchronizable scope: SynchronizableScope = .configured) throws(KeychainError) -> [String: Any] {
        var query = try baseQuery(synchronizable: scope)
        query[kSecAttrAccount as String] = key
        return query
    }

    /// What a save writes besides the identity: the secret and the options.
    func writtenAttributes(secret: Data) throws(KeychainError) -> [String: Any] {
        var attributes: [String: Any] = [
            kSecValueData as String: secret,
            kSecAttrAccessible as String: options.accessibility.rawValue,
        ]
        if let label = options.label { attributes[kSecAttrLabel as String] = label }
        if let comment = options.comment { attributes[kSecAttrComment as String] = comment }
        for (name, value) in options.attributes {
            // Only item attributes (four characters): a return, match or value key here
            // would change what the call does, not what it stores.
            guard name.utf8.count == 4, !Self.managedAttributes.contains(name) else {
                throw KeychainError(
                    status: errSecParam,
                    reason: "extra attribute '\(name)' is not an item attribute the Keychain lets options set")
            }
            attributes[name] = value.dictionaryValue
        }
        return attributes
    }

    /// The account of a result's attributes as a key: text, or UTF-8 data.
    static func key(ofAttributes attributes: [String: Any]) -> String? {
        switch attributes[kSecAttrAccount as String] {
        case nil: return ""  // No account is the same identity as an empty one.
        case let account as String: return account
        case let account as Data: return String(data: account, encoding: .utf8)
        default: return nil
        }
    }
}
