import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Keeps the write-ahead log short without making a commit wait for it.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold, so that
/// one add copies thousands of pages into the database file and syncs it: about half of the
/// cost of an add, measured. Instead, a commit that leaves the log at
/// ``backgroundPages`` frames or more asks a utility thread to run a passive checkpoint on a
/// connection of its own, which neither waits for nor blocks readers and writers. Should the
/// log still reach ``foregroundPages`` (the background thread starved, or every process
/// exits before its thread gets to work), the committing connection checkpoints itself, as
/// SQLite would have.
final class WALCheckpointer: Sendable {
    /// About 4 MiB of log with 4 KiB pages.
    static let backgroundPages: CInt = 1_000
    /// About 32 MiB of log.
    static let foregroundPages: CInt = 8_000

    private let path: String
    private let queue = DispatchQueue(label: "swift-keychain.checkpoint", qos: .utility)
    /// Whether a background checkpoint is queued or running, and its connection.
    private let state = Mutex<(scheduled: Bool, connection: DatabaseQueue?)>((false, nil))

    init(path: String) {
        self.path = path
    }

    /// Replaces SQLite's automatic checkpoint on `db` with this one. The hook keeps the
    /// checkpointer alive for as long as the connection may call it.
    func install(on db: Database) {
        let context = Unmanaged.passRetained(self).toOpaque()
        sqlite3_wal_hook(db.sqliteConnection, { context, connection, _, frames in
            guard let context else { return SQLITE_OK }
            let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
            if frames >= WALCheckpointer.foregroundPages {
                // What SQLite's own hook does; a failure leaves the log to the next commit.
                _ = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            } else if frames >= WALCheckpointer.backgroundPages {
                checkpointer.scheduleBackgroundCheckpoint()
            }
            return SQLITE_OK
        }, context)
    }

    private func scheduleBackgroundCheckpoint() {
        let alreadyScheduled = state.withLock { state in
            defer { state.scheduled = true }
            return state.scheduled
        }
        if alreadyScheduled { return }
        queue.async { [self] in
            defer { state.withLock { $0.scheduled = false } }
            do {
                try backgroundConnection().writeWithoutTransaction { db in
                    _ = try db.checkpoint(.passive)
                }
            } catch {
                // Another process's checkpoint, or a busy log: the next commit asks again.
                keychainLogger.debug("background checkpoint did not run", metadata: ["reason": "\(error)"])
            }
        }
    }

    private func backgroundConnection() throws -> DatabaseQueue {
        if let connection = state.withLock({ $0.connection }) { return connection }
        var configuration = Configuration()
        configuration.label = "keychain-checkpoint"
        configuration.busyMode = .timeout(1)
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        state.withLock { $0.connection = connection }
        return connection
    }
}
