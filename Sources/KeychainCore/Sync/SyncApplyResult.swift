/// What applying a remote change to the keychain did.
package enum SyncApplyResult: Sendable, Equatable {
    /// The item was inserted, or replaced the row with its identity; the row's id.
    case applied(rowID: Int64)
    /// The row with the tombstone's identity was deleted.
    case deleted
    /// Nothing was written: there was no row with the tombstone's identity, or the row with
    /// the change's identity is of a ThisDeviceOnly class, which sync leaves alone.
    case absent
    /// The row was changed locally after the log entry the caller knows: nothing was
    /// written, and the local change, sent in its turn, decides.
    case changedLocally
}
