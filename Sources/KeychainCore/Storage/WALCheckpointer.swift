import Dispatch
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Keeps the write-ahead log short without making a commit wait for it.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold, so that
/// one add copies thousands of pages into the database file and syncs it: about half of the
/// cost of an add, measured. Instead, each time the log grows by ``backgroundPages`` frames
/// a commit asks a utility thread to run a passive checkpoint on a connection of its own,
/// which neither waits for nor blocks readers and writers. A passive checkpoint cannot
/// rewind the log while commits keep coming (SQLite rewinds it when a write begins on a
/// fully copied log), so when the log reaches ``foregroundPages`` the committing connection
/// checkpoints what is left itself, as SQLite would have, and the log starts over. That
/// also covers a background thread that starved or a process that exited first.
///
/// The log starts over once it holds ``foregroundPages`` frames, rather than growing through
/// a long burst of writes: every commit syncs the log (`synchronous=FULL`), and a commit
/// that lengthens the file makes that sync also write the file's size to disk, a second
/// wait on the disk, which a commit into a log that started over (the file keeps its
/// length) does not pay. Measured with `Scripts/benchmark --durable`: one thread's durable
/// adds went from 0.72 to 0.84 times a bare SQLite insert's rate when the log started over
/// at 2,000 frames instead of 32,000. The log file keeps its largest size while the
/// keychain stays open, and is cut back when a process next opens it (see
/// ``truncateLongLog(of:)``).
final class WALCheckpointer: Sendable {
    /// About 4 MiB of log with 4 KiB pages.
    static let backgroundPages: CInt = 1_000
    /// About 8 MiB of log: the committing connection copies what the background checkpoint
    /// left, and the next write starts the log over.
    static let foregroundPages: CInt = 2_000

    private let path: String
    private let queue = DispatchQueue(label: "swift-keychain.checkpoint", qos: .utility)
    /// Whether a background checkpoint is queued or running, the log's length when the
    /// last one was asked for, and the background connection.
    private let state = Mutex<(scheduled: Bool, askedAt: CInt, connection: DatabaseQueue?)>((false, 0, nil))

    init(path: String) {
        self.path = path
    }

    /// Replaces SQLite's automatic checkpoint on `db` with this one. The hook keeps the
    /// checkpointer alive for as long as the connection may call it.
    ///
    /// It also keeps the log file when the last connection closes (persistent WAL): the
    /// close still checkpoints it and marks it empty, but GRDB, finding no log file at the
    /// next open, would write a table and drop it to make one, and sync both: about 10 ms
    /// for every short-lived process that reads the keychain, measured with strace.
    func install(on db: Database) {
        var persist: CInt = 1
        _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        let context = Unmanaged.passRetained(self).toOpaque()
        sqlite3_wal_hook(db.sqliteConnection, { context, connection, _, frames in
            guard let context else { return SQLITE_OK }
            let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
            if frames >= WALCheckpointer.foregroundPages {
                // What SQLite's own hook does; a failure leaves the log to the next commit.
                _ = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            } else {
                checkpointer.committed(frames: frames)
            }
            return SQLITE_OK
        }, context)
    }

    /// Asks for a background checkpoint each time the log has grown by ``backgroundPages``.
    private func committed(frames: CInt) {
        let schedule = state.withLock { state in
            // A shorter log than last time: it started over.
            if frames < state.askedAt { state.askedAt = 0 }
            guard !state.scheduled, frames >= state.askedAt + Self.backgroundPages else { return false }
            state.scheduled = true
            state.askedAt = frames
            return true
        }
        if !schedule { return }
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

    /// Closes the background connection, after the checkpoint it may be running.
    func close() {
        queue.sync {
            let connection = state.withLock { state in
                defer { state.connection = nil }
                return state.connection
            }
            try? connection?.close()
        }
    }

    /// A log this long at open was left by processes that exited before their background
    /// checkpoint ran (a command-line tool's adds, one process each). The first connection
    /// of a process rebuilds SQLite's index of the log by reading all of it, about 0.5 ms
    /// per MiB (measured), so every later process would pay for it again.
    static let longLogBytes = 1 << 20

    /// Copies a long log into the database and truncates it, on a connection of its own that
    /// gives up at once rather than wait for another process that is reading or writing:
    /// one process pays for the checkpoint, and the next ones open a short log.
    /// Whether the log of the database at `databasePath` holds no frame: no file, or an
    /// empty one, as every truncating checkpoint leaves it. A log of any other length may
    /// hold frames, whether or not this process wrote them.
    static func logIsEmpty(of databasePath: String) -> Bool {
        var info = stat()
        return stat(databasePath + "-wal", &info) != 0 || info.st_size == 0
    }

    static func truncateLongLog(of databasePath: String) {
        var info = stat()
        guard stat(databasePath + "-wal", &info) == 0, info.st_size > longLogBytes else { return }
        do {
            var configuration = Configuration()
            configuration.label = "keychain-truncate"
            try DatabaseQueue(path: databasePath, configuration: configuration).writeWithoutTransaction { db in
                _ = try db.checkpoint(.truncate)
            }
            syncLog(of: databasePath)
        } catch {
            keychainLogger.debug("long log not truncated", metadata: ["reason": "\(error)"])
        }
    }

    /// Syncs the log of the database at `databasePath`, as a truncating checkpoint must be
    /// followed: SQLite's `ftruncate` of the log is not synced, so a power cut could restore
    /// the frames it held. False when the sync failed (logged).
    @discardableResult
    static func syncLog(of databasePath: String) -> Bool {
        PrivateFile.sync(databasePath + "-wal", role: "keychain's log")
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
