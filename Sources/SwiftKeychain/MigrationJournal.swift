import Foundation
import Security

/// What a migration has changed so far, so that a failure can undo it.
///
/// Keychain Services has no transaction across calls, so a rollback is compensating calls:
/// originals that were removed are added back first, then the copies are removed, so a
/// secret is never missing from both places.
struct MigrationJournal {
    let destination: Keychain
    private(set) var addedKeys: [String] = []
    private(set) var removedOriginals: [MigrationSource] = []

    init(destination: Keychain) {
        self.destination = destination
    }

    /// Adds a copy of `source` to the destination; never overwrites an item.
    mutating func addCopy(of source: MigrationSource) throws(KeychainError) {
        let identity = try destination.itemQuery(forKey: source.key)
        let item = identity.merging(try destination.writtenAttributes(secret: source.data)) { _, written in written }
        guard try SecItemCalls.add(item, during: "migrating an item") else {
            throw KeychainError(status: errSecDuplicateItem, reason: "an item with a migrated key was added during the migration")
        }
        addedKeys.append(source.key)
    }

    /// Removes the original item, exactly that one (by its persistent reference).
    mutating func removeOriginal(_ source: MigrationSource) throws(KeychainError) {
        var query = source.target
        query[kSecClass as String] = source.itemClass
        query[kSecValuePersistentRef as String] = source.persistentReference
        guard try SecItemCalls.delete(query, during: "removing a migrated item") else {
            throw KeychainError(status: errSecItemNotFound, reason: "a migrated item was removed by another writer during the migration")
        }
        removedOriginals.append(source)
    }

    /// Undoes every change, newest first, and returns the error to report: `failure`,
    /// noting how many changes could not be undone if any.
    func rollBack(after failure: KeychainError) -> KeychainError {
        var undoFailures = 0
        for source in removedOriginals.reversed() {
            var item = source.restorableAttributes.merging(source.target) { attribute, _ in attribute }
            item[kSecClass as String] = source.itemClass
            item[kSecValueData as String] = source.data
            if SecItemAdd(item as CFDictionary, nil) != errSecSuccess { undoFailures += 1 }
        }
        for key in addedKeys.reversed() {
            guard let query = try? destination.itemQuery(forKey: key),
                  SecItemDelete(query as CFDictionary) == errSecSuccess else {
                undoFailures += 1
                continue
            }
        }
        guard undoFailures > 0 else { return failure }
        return KeychainError(
            status: failure.status,
            reason: "\(failure.reason ?? "the migration failed"); undoing it failed for \(undoFailures) item(s)")
    }
}
