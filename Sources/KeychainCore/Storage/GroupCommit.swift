import Foundation
import GRDB
import GRDBSQLite

/// Commits the writes of one process's threads together: each commit syncs the log to disk
/// (`synchronous=FULL`), and that sync, not the write, is what a durable write costs.
///
/// A writer queues its change and waits. The writer at the head of the queue leads: it
/// opens one IMMEDIATE transaction, runs every change queued so far (each in a savepoint of
/// its own when there are several, so that one failing change leaves the others whole),
/// and, for at most `siblingWait`, the changes of the threads that wrote in the last few
/// milliseconds as they queue, so that threads writing in a loop share every sync; then it
/// commits once and wakes the next leader, then each writer of the batch with its own
/// result. A lone writer runs its change in a transaction of its own at once, with no
/// thread switch.
///
/// Every change a call made is durable when the call returns: it returns only after the
/// commit that holds it.
final class GroupCommit: @unchecked Sendable {
    /// One queued change and, once its batch committed, its outcome.
    private final class Writer {
        /// Released by the leader before it marks the writer done: the closure does not
        /// escape the call that queued it (`withoutActuallyEscaping` checks that).
        var change: ((Database) throws -> Void)?
        let supersedes: Bool
        var error: (any Error)?
        var isDone = false
        /// Signaled once, when the writer's batch committed or the writer is to lead.
        let wake = DispatchSemaphore(value: 0)

        init(change: @escaping (Database) throws -> Void, supersedes: Bool) {
            self.change = change
            self.supersedes = supersedes
        }
    }

    /// How many changes one transaction takes at most, so that one batch holds the write
    /// lock, and the other processes' writers, for a bounded time.
    static let batchLimit = 64

    private let database: DatabaseQueue
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var queue: [Writer] = []
    /// Whether a scrub did not complete and is owed. Only the leader, one thread at a time,
    /// reads and writes it.
    private var scrubPending = false
    /// The most changes one transaction held so far; for tests.
    private(set) var largestBatch = 0
    /// How many transactions committed batches so far; for tests.
    private(set) var batchCount = 0

    /// How many writers are queued or committing now; for tests.
    var queuedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return queue.count
    }

    /// How long a scrub keeps trying while other connections hold the log.
    private let patience: TimeInterval

    /// How long a leader waits at most for threads that wrote lately to queue their next
    /// change: a few times what a caller takes to prepare one (parse, seal), about one sync.
    private let siblingWait: TimeInterval

    init(database: DatabaseQueue, patience: TimeInterval, siblingWait: TimeInterval = 0.000_15,
         writerWindow: TimeInterval = 0.003) {
        self.database = database
        self.patience = patience
        self.siblingWait = siblingWait
        recentWriters = RecentWriters(window: UInt64(writerWindow * 1e9))
    }

    /// Runs `change` in a transaction, alone or with other threads' changes, and returns
    /// once that transaction is durable. An error thrown by `change` rolls back `change`
    /// alone; an error of the commit itself fails every change of the batch.
    ///
    /// - Parameter supersedes: whether the change deletes or overwrites stored bytes, which
    ///   must then be gone from every file when the call returns.
    func perform<T>(supersedes: Bool, _ change: (Database) throws -> T) throws -> T {
        var result: T?
        try withoutActuallyEscaping(change) { change in
            let writer = Writer(change: { db in result = try change(db) }, supersedes: supersedes)
            try run(writer)
        }
        // Set whenever `run` returned without an error.
        guard let result else { throw KeychainError.io("a committed change left no result") }
        return result
    }

    private func run(_ writer: Writer) throws {
        lock.lock()
        let now = DispatchTime.now().uptimeNanoseconds
        recentWriters.note(thread: UInt(pthread_self()), at: now)
        queue.append(writer)
        if awaitedCount > 0 && queue.count >= awaitedCount {
            awaitedCount = 0
            siblingsQueued.signal()
        }
        let leads = queue.first === writer
        lock.unlock()
        if !leads {
            // Woken once: by the leader of its batch when that committed, or by the leader
            // of the batch before when this writer became the head of the queue.
            writer.wake.wait()
            if writer.isDone {
                if let error = writer.error { throw error }
                return
            }
        }
        lock.lock()
        let expected = min(recentWriters.count(at: DispatchTime.now().uptimeNanoseconds), Self.batchLimit)
        lock.unlock()

        let batch = commit(expecting: expected)

        for member in batch {
            member.change = nil
            member.isDone = true
        }
        lock.lock()
        queue.removeFirst(batch.count)
        let nextLeader = queue.first
        lock.unlock()
        // The next leader first, so that the next batch starts while this one's writers
        // wake; each writer is woken alone, and none waits for a lock to read its outcome
        // (the semaphore orders the writes above before its reads).
        nextLeader?.wake.signal()
        for member in batch where member !== writer { member.wake.signal() }
        if let error = writer.error { throw error }
    }

    /// The threads that wrote lately: the leader waits a moment for those not queued yet.
    /// Guarded by `lock`.
    private var recentWriters: RecentWriters
    /// How many queued writers a waiting leader waits for (0 when none waits); guarded by
    /// `lock`. The last of them signals `siblingsQueued`, which wakes the leader alone
    /// rather than every queued writer.
    private var awaitedCount = 0
    private let siblingsQueued = DispatchSemaphore(value: 0)

    /// Waits, holding `lock` on entry and return, until at least `count` writers are queued
    /// or `deadline` passed.
    private func awaitQueued(_ count: Int, until deadline: DispatchTime) {
        guard queue.count < count else { return }
        awaitedCount = count
        lock.unlock()
        let signaled = siblingsQueued.wait(timeout: deadline) == .success
        lock.lock()
        if awaitedCount != 0 {
            // Timed out, and nobody signaled.
            awaitedCount = 0
        } else if !signaled {
            // Timed out, and the last sibling signaled just after: take that signal back,
            // so that the next leader does not find it.
            siblingsQueued.wait()
        }
    }

    /// Runs the queued changes in one transaction, and those of the threads that wrote
    /// lately as they queue, until `expected` changes ran or `siblingWait` passed; commits;
    /// records each one's outcome, and returns the batch.
    ///
    /// Gathering inside the open transaction lets the leader run the changes that queued
    /// first while the later threads still prepare theirs (parse, seal), instead of waiting
    /// for all of them and then running every change in turn. The transaction holds the
    /// write lock and the connection meanwhile, so another process's writer, and a read of
    /// this process, waits for `siblingWait` at most on top of the batch's own time.
    private func commit(expecting expected: Int) -> [Writer] {
        lock.lock()
        var batch = Array(queue.prefix(Self.batchLimit))
        lock.unlock()
        let deadline = DispatchTime.now() + siblingWait
        // A batch that starts with a superseding change is scrubbed right after its commit,
        // and the scrub's checkpoint syncs the log before it copies anything (SQLite does,
        // at every level but OFF): that sync makes the commit durable, so the commit's own
        // sync of the log (`synchronous=FULL`) would be a second wait on the disk for the
        // same bytes. Such a transaction commits at `synchronous=NORMAL`, which SQLite
        // documents as always consistent in WAL mode (a commit is all or nothing after a
        // power cut; it only may not survive one until the next sync), and the call returns
        // only after the scrub, or a sync of the log in its place, made it durable.
        let syncsAfterCommit = batch.contains { $0.supersedes }
        do {
            try database.writeWithoutTransaction { db in
                try setSynchronous(full: !syncsAfterCommit, db)
                defer { if syncsAfterCommit { try? setSynchronous(full: true, db) } }
                try BatchTransaction.run(in: db) { transaction in
                    if batch.count == 1 && expected <= 1 {
                        try batch[0].change?(db)
                        return
                    }
                    var ran = 0
                    while true {
                        for member in batch[ran...] {
                            do {
                                try transaction.savepoint { try member.change?(db) }
                            } catch let lost as BatchTransaction.TransactionLost {
                                member.error = lost.cause
                                throw lost.cause
                            } catch {
                                member.error = error
                            }
                        }
                        ran = batch.count
                        if ran >= min(expected, Self.batchLimit) || DispatchTime.now() >= deadline { return }
                        lock.lock()
                        awaitQueued(ran + 1, until: deadline)
                        batch = Array(queue.prefix(Self.batchLimit))
                        lock.unlock()
                        if batch.count == ran { return }
                    }
                }
                var scrubbed = false
                if scrubPending || batch.contains(where: { $0.supersedes && $0.error == nil }) {
                    // Only in a process that wrote before, and so likely writes again: a log
                    // started again is left for the last process's close to copy and empty.
                    scrubbed = Self.scrub(db, patience: patience, databasePath: database.path,
                                          restartingTheLog: batchCount > 0)
                    scrubPending = !scrubbed
                }
                // A scrub that completed copied the log into the database and synced that
                // file; otherwise (a reader held its snapshot too long, or every superseding
                // change failed) the log is synced here, as the commit would have.
                if syncsAfterCommit && !scrubbed && !WALCheckpointer.syncLog(of: database.path) {
                    throw KeychainError.io("the change was written but could not be synced to disk")
                }
            }
        } catch {
            // The transaction did not commit, and no change of the batch is applied; or, in
            // the rare case of a log that could not be synced after it, the batch may not
            // survive a power cut: either way no change of it is reported done.
            for member in batch where member.error == nil { member.error = error }
        }
        lock.lock()
        largestBatch = max(largestBatch, batch.count)
        batchCount += 1
        lock.unlock()
        return batch
    }

    /// Starts the log that a truncating checkpoint just emptied again, with one frame: the
    /// database's first page (its header and the schema: no secret), with the header's user
    /// version set to the value it has. SQLite writes no frame for a row rewritten as it
    /// is, but always rewrites its header page for this pragma.
    ///
    /// SQLite writes a new log's header before its first frame and syncs it (at every level
    /// but OFF), so that a power cut cannot pair old frames with a new header; that sync
    /// also makes the emptied log's new length durable, which is what the scrub needs. The
    /// next commit then adds to the log instead of starting it, and skips that sync: one
    /// sync fewer per superseding write, and per first add after one. False when this did
    /// not start the log (another connection's commit already had, or an error): the caller
    /// then syncs the log itself.
    static func restartLog(_ db: Database, databasePath: String) -> Bool {
        do {
            var rewritten = false
            try BatchTransaction.run(in: db) { _ in
                guard WALCheckpointer.logIsEmpty(of: databasePath) else { return }
                guard let version = try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA user_version")) else { return }
                try DirectStatement(db, sql: "PRAGMA user_version = \(version)", values: []).execute()
                rewritten = true
            }
            return rewritten && !WALCheckpointer.logIsEmpty(of: databasePath)
        } catch {
            keychainLogger.debug("the emptied log was not started again", metadata: ["reason": "\(error)"])
            return false
        }
    }

    /// Whether the connection is known to sync each commit; false after a failed attempt
    /// to set it back, so that the next batch sets it before it begins. Only the leader,
    /// one thread at a time, reads and writes it.
    private var synchronousIsFull = true

    /// Sets how the connection's commits sync: FULL (each commit syncs the log) or NORMAL
    /// (the next checkpoint, or the caller, syncs it). Run through `sqlite3_exec`, not a
    /// cached statement: SQLite applies this pragma when it prepares it, and refuses it
    /// inside a transaction.
    private func setSynchronous(full: Bool, _ db: Database) throws {
        if full && synchronousIsFull { return }
        synchronousIsFull = false
        let code = sqlite3_exec(db.sqliteConnection, full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL",
                                nil, nil, nil)
        guard code == SQLITE_OK else {
            throw KeychainError.io("cannot set how the keychain's commits sync: \(String(cString: sqlite3_errstr(code)))")
        }
        synchronousIsFull = full
    }

    /// Copies the whole log into the database file and truncates it to nothing, so that no
    /// earlier version of a page (a deleted item, an overwritten secret, a superseded key)
    /// remains in any file: SQLite keeps the versions a transaction replaced in the log
    /// until a checkpoint, and `secure_delete` zeroes what is freed in the database file.
    ///
    /// It waits for other connections' reads to end (SQLite's busy handler) and for their
    /// checkpoints, which a checkpoint meets with SQLITE_BUSY at once (a background one of
    /// this process, after a burst of writes), trying again for at most `patience`; a
    /// reader holding a snapshot longer leaves the scrub to the next write (false, logged).
    /// The log's new length is synced before this returns true: with `restartingTheLog`, by
    /// starting the log again (see ``restartLog(_:databasePath:)``), else by a sync of it.
    static func scrub(_ db: Database, patience: TimeInterval, databasePath: String,
                      restartingTheLog: Bool = false) -> Bool {
        let deadline = Date(timeIntervalSinceNow: patience)
        while true {
            do {
                _ = try db.checkpoint(.truncate)
                // SQLite cuts the log without syncing it: until the file system writes its new
                // length (seconds later on ext4), a power cut brings back the log as it was,
                // superseded page versions included. One process per call never showed it (the
                // close that follows has its moment); a long-lived app, the provider or the
                // sync agent would. Starting the log again syncs that length; a sync of the
                // log does when it cannot.
                return (restartingTheLog && restartLog(db, databasePath: databasePath))
                    || WALCheckpointer.syncLog(of: databasePath)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(1_000)
            } catch {
                keychainLogger.warning(
                    "the log could not be emptied after a change; superseded data stays in it until the next write",
                    metadata: ["reason": "\(error)"])
                return false
            }
        }
    }
}
