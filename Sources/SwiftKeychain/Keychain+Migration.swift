import Foundation
import Security

// Migration, as Valet does it: items written by other code, or by another Keychain
// configuration, move into this keychain all together or not at all.
extension Keychain {
    /// Moves the password items a query matches into this keychain.
    ///
    /// Every item is read first and the whole set is validated before anything is written:
    /// each item must be readable and its account text; no two may have the same key; no key
    /// may already exist in this keychain. Then each is added here with this keychain's
    /// ``options`` (their key and secret move, not their other attributes) and, if
    /// `removeOnCompletion`, each original is removed. If any step fails, the changes made
    /// so far are undone and the error is thrown.
    ///
    /// ```swift
    /// try keychain.migrateItems(matching: [
    ///     kSecClass as String: kSecClassGenericPassword,
    ///     kSecAttrService as String: "legacy-service",
    /// ], removeOnCompletion: true)
    /// ```
    ///
    /// The undo is a set of compensating calls, not a transaction: another process writing
    /// the same items meanwhile can see the intermediate states.
    ///
    /// - Parameters:
    ///   - query: A `kSecClass` of generic or internet passwords and the attributes to match.
    ///     No `kSecMatch*`, `kSecReturn*` or `kSecValue*` keys.
    ///   - removeOnCompletion: Whether to remove the originals once all are copied.
    /// - Returns: How many items moved; 0 when the query matches none.
    /// - Throws: ``KeychainError``: `errSecParam` for a bad query, `errSecDuplicateItem` for
    ///   a key collision, `errSecDecode` for an account that is not text, or the status of
    ///   the call that failed.
    @discardableResult
    public func migrateItems(matching query: [String: Any], removeOnCompletion: Bool) throws(KeychainError) -> Int {
        let sources = try MigrationSource.collect(matching: query)
        try validateMigration(of: sources)
        var journal = MigrationJournal(destination: self)
        do throws(KeychainError) {
            for source in sources { try journal.addCopy(of: source) }
            if removeOnCompletion {
                for source in sources { try journal.removeOriginal(source) }
            }
        } catch {
            throw journal.rollBack(after: error)
        }
        return sources.count
    }

    /// Moves the items of another keychain configuration (another service, server or access
    /// group) into this one, as ``migrateItems(matching:removeOnCompletion:)`` does.
    ///
    /// - Throws: ``KeychainError``; `errSecParam` when `source` names the same items as this
    ///   keychain.
    @discardableResult
    public func migrateItems(from source: Keychain, removeOnCompletion: Bool) throws(KeychainError) -> Int {
        guard source.location != location || source.accessGroup != accessGroup || source.file != file
                || source.options.synchronizable != options.synchronizable else {
            throw KeychainError(status: errSecParam, reason: "a keychain cannot migrate items from itself")
        }
        return try migrateItems(matching: try source.baseQuery(synchronizable: .configured),
                                removeOnCompletion: removeOnCompletion)
    }

    /// Rejects a migration that would overwrite or merge items.
    private func validateMigration(of sources: [MigrationSource]) throws(KeychainError) {
        // Keys are compared as bytes, as the keychain compares accounts (byte-exact on the
        // UTF-8, case-sensitive), not with String's Unicode equivalence.
        var seen: Set<Data> = []
        for source in sources {
            guard seen.insert(Data(source.key.utf8)).inserted else {
                throw KeychainError(status: errSecDuplicateItem, reason: "two items to migrate have the same key")
            }
            if try contains(source.key) {
                throw KeychainError(status: errSecDuplicateItem, reason: "a key to migrate already exists in the destination")
            }
        }
    }
}
