import Foundation
import GRDB

/// The sync change log (``SyncLogTable``), for the sync agent: what changed locally since
/// it last looked.
extension KeychainStore {
    /// Turns the log on: from now on every add, update or delete (archive imports included)
    /// of a synchronizable item that is not ThisDeviceOnly appends an entry (its row id and
    /// the time) in the same transaction as the change, and so does an update that makes a
    /// row stop being synchronizable. Turning it on logs every such existing row once; when
    /// it is on already, nothing changes.
    package func startSyncLog() throws(KeychainError) {
        try write(during: "start the sync log", supersedes: false) { db in try SyncLogTable.start(db) }
    }

    /// Turns the log off and empties it. Sequences go on from where they were when it is
    /// turned on again.
    package func stopSyncLog() throws(KeychainError) {
        try write(during: "stop the sync log", supersedes: false) { db in try SyncLogTable.stop(db) }
    }

    /// Whether the log is on.
    package func isSyncLogOn() throws(KeychainError) -> Bool {
        try Self.oneStatement(database, during: "read the sync log") { db in try SyncLogTable.isOn(db) }
    }

    /// The entries after `sequence` (0 for all), oldest first, at most `limit`; errSecParam
    /// for a limit below 1.
    package func syncLog(after sequence: Int64, limit: Int) throws(KeychainError) -> [SyncLogEntry] {
        guard limit > 0 else { throw .param("a sync log read takes a limit of at least 1") }
        return try Self.oneStatement(database, during: "read the sync log") { db in
            try SyncLogTable.entries(after: sequence, limit: limit, in: db)
        }
    }

    /// How many entries come after `sequence`: the changes not sent yet, counted without
    /// reading them.
    package func syncLogCount(after sequence: Int64) throws(KeychainError) -> Int {
        try Self.oneStatement(database, during: "count the sync log") { db in
            try SyncLogTable.count(after: sequence, in: db)
        }
    }

    /// Removes the entries up to `sequence`, included: what the agent has sent.
    package func removeSyncLog(through sequence: Int64) throws(KeychainError) {
        try write(during: "trim the sync log", supersedes: false) { db in
            try SyncLogTable.remove(through: sequence, in: db)
        }
    }
}
