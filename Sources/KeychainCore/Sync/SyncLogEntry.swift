import Foundation

/// One entry of the sync change log: a synchronizable row that was added, changed or
/// deleted (or stopped being synchronizable), and when.
///
/// It names the row and no content: what the row holds now
/// (``KeychainStore/syncedItem(rowID:)``), or that it is gone, is what sync sends. A row may
/// have several entries; row ids of deleted rows may be taken again by later rows, which the
/// entries' identity hashes tell apart.
package struct SyncLogEntry: Sendable, Equatable {
    /// Increases with every entry and is never reused, even after the log is emptied.
    package let sequence: Int64
    package let rowID: Int64
    /// Milliseconds since 1970, by the clock of the machine that made the change.
    package let changedAt: UInt64
    /// The keyed hash of the identity of the item the change concerns (the one deleted, for
    /// a delete; both, in two entries, for an update that renames the item). Compared only
    /// with other entries' identities: it tells when a row stopped holding an item.
    package let identity: Data?

    package init(sequence: Int64, rowID: Int64, changedAt: UInt64, identity: Data? = nil) {
        self.sequence = sequence
        self.rowID = rowID
        self.changedAt = changedAt
        self.identity = identity
    }
}
