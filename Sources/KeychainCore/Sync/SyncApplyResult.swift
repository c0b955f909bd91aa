/// What applying a remote change to the keychain did.
package enum SyncApplyResult: Sendable, Equatable {
    /// The item was inserted, or replaced the row with its identity; the row's id.
    case applied(rowID: Int64)
    /// The row with the tombstone's identity was deleted.
    case deleted
    /// There was no row with the tombstone's identity: nothing to delete.
    case absent
    /// The row was changed locally after the log entry the caller knows: nothing was
    /// written, and the local change, sent in its turn, decides.
    case changedLocally
}
