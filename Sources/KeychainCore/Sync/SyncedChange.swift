/// One remote change for ``KeychainStore/applySynced(_:knownLog:)``: an item to insert or
/// replace, or a tombstone whose identity is to be deleted.
package enum SyncedChange: Sendable {
    /// Insert the item, or replace the row with its identity (as ``KeychainStore/applySyncedItem(_:knownLog:)``).
    case item(SyncedItem)
    /// Delete the row with the tombstone's identity (as ``KeychainStore/applySyncedDeletion(_:knownLog:)``).
    case deletion(SyncedItem)
}
