import Foundation
import Security

/// An item found for a migration, read whole before anything is written: its key, secret,
/// persistent reference (to remove exactly this item) and the attributes needed to put it
/// back if the migration is rolled back. Holds a secret: never log or describe it.
struct MigrationSource {
    let key: String
    let data: Data
    let itemClass: CFString
    let persistentReference: Data
    /// The attributes an add needs to recreate the item.
    let restorableAttributes: [String: Any]
    /// The query keys that pick the item's keychain (`kSecUseKeychain`...), for the calls
    /// that remove or restore it.
    let target: [String: Any]

    /// The attributes of a password item that an add accepts back; the dates, references
    /// and any private attributes a platform returns are left out.
    static let restorableNames: Set<String> = [
        kSecAttrAccount, kSecAttrService, kSecAttrGeneric, kSecAttrServer, kSecAttrSecurityDomain,
        kSecAttrProtocol, kSecAttrAuthenticationType, kSecAttrPort, kSecAttrPath, kSecAttrAccessGroup,
        kSecAttrAccessible, kSecAttrSynchronizable, kSecAttrLabel, kSecAttrComment, kSecAttrDescription,
        kSecAttrCreator, kSecAttrType, kSecAttrIsInvisible, kSecAttrIsNegative,
    ].map { $0 as String }.reduce(into: []) { names, name in names.insert(name) }

    /// Reads every password item a query matches, secrets included.
    ///
    /// - Throws: `errSecParam` for a query that is not for generic or internet passwords or
    ///   that has match, return or value keys (the migration adds its own); `errSecDecode`
    ///   for an item whose account is not text; the status of any item that cannot be read.
    static func collect(matching query: [String: Any]) throws(KeychainError) -> [MigrationSource] {
        let passwordClasses = [kSecClassGenericPassword, kSecClassInternetPassword]
        let className = query[kSecClass as String] as? String
        guard let itemClass = passwordClasses.first(where: { ($0 as String) == className }) else {
            throw KeychainError(status: errSecParam, reason: "a migration query must name kSecClassGenericPassword or kSecClassInternetPassword")
        }
        if query.keys.contains(where: { $0.hasPrefix("m_") || $0.hasPrefix("r_") || $0.hasPrefix("v_") }) {
            throw KeychainError(status: errSecParam, reason: "a migration query may not have kSecMatch, kSecReturn or kSecValue keys")
        }
        var sources: [MigrationSource] = []
        for entry in try Keychain.listAttributes(matching: query, withPersistentReferences: true) {
            let key = try Keychain.requireKey(of: entry)
            guard let data = try Keychain.secret(of: entry, itemClass: itemClass, in: query),
                  let reference = entry[kSecValuePersistentRef as String] as? Data else {
                throw KeychainError(status: errSecItemNotFound, reason: "an item to migrate was removed while the migration read it")
            }
            sources.append(MigrationSource(
                key: key, data: data, itemClass: itemClass, persistentReference: reference,
                restorableAttributes: entry.filter { restorableNames.contains($0.key) },
                target: Platform.target(of: query)))
        }
        return sources
    }
}
