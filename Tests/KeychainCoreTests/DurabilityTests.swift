import Foundation
import GRDB
@testable import KeychainCore
import Synchronization
import Testing
import TestSupport

/// What a write promises once it returns: it is durable, grouped with other threads' writes
/// without being tied to their fate, and what it superseded is gone from every file.
@Suite struct DurabilityTests {
    let caller = CallerIdentity(accessGroups: ["com.example.app"])

    func files(_ purpose: String) -> KeychainFiles {
        let folder = TestScratch.folder(purpose)
        return KeychainFiles(directory: folder.appendingPathComponent("keychains"), name: "work",
                             machineSecret: folder.appendingPathComponent("machine"))
    }

    func item(_ account: String, secret: String = "s3cret", accessibility: Accessibility = .afterFirstUnlock) -> NewItem {
        NewItem(itemClass: .genericPassword,
                attributes: ["acct": .string(account), "svce": .string("svc"), "pdmn": .string(accessibility.rawValue)],
                data: Data(secret.utf8))
    }

    @Test("acknowledged means durable: every connection syncs each commit (synchronous=FULL) and zeroes freed space")
    func connectionsSyncEachCommitAndZeroFreedSpace() throws {
        let store = try KeychainStore.open(files("pragmas"))
        let (synchronous, secureDelete) = try store.database.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA synchronous"), try Int.fetchOne(db, sql: "PRAGMA secure_delete"))
        }
        #expect(synchronous == 2, "2 is FULL")
        #expect(secureDelete == 1)
    }

    @Test("group commit: a change that fails in a shared transaction rolls back alone; the others commit")
    func aFailingChangeInABatchLeavesTheOthersWhole() throws {
        let store = try KeychainStore.open(files("batch"))
        _ = try store.add(item("taken"), by: caller)
        let rows = (0..<6).map { index in try? store.newRow(
            ItemRecord(itemClass: .genericPassword, attributes: [
                "acct": .string(index == 3 ? "taken" : "a\(index)"), "svce": .string("svc"),
                "pdmn": .string(Accessibility.afterFirstUnlock.rawValue), "agrp": .string("com.example.app"),
            ]), secret: Data("s\(index)".utf8)) }
        // The first writer holds its transaction open until the five others are queued
        // behind it, so that they are committed together as one batch. Threads of their own:
        // a pool of two would never start the others while the first one waits.
        let outcomes = Mutex<[Int: Int32]>([:])
        let finished = DispatchGroup()
        // Waits for `count` queued writers, for a minute at most, so that a regression fails
        // the expectations below instead of hanging the run.
        @Sendable func awaitQueue(_ count: Int) -> Bool {
            let deadline = Date(timeIntervalSinceNow: 60)
            while store.commits.queuedCount < count {
                guard Date() < deadline else { return false }
                usleep(1_000)
            }
            return true
        }
        func start(_ index: Int) {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                let status: Int32
                do {
                    guard let row = rows[index] else { throw KeychainError.io("no row") }
                    _ = try store.write(during: "test add", supersedes: false) { db in
                        if index == 0 { _ = awaitQueue(6) }
                        return try row.insert(into: db)
                    }
                    status = 0
                } catch let error as KeychainError {
                    status = error.status
                } catch {
                    status = -1
                }
                outcomes.withLock { $0[index] = status }
            }
        }
        start(0)
        #expect(awaitQueue(1), "the first writer never queued")
        for index in 1..<6 { start(index) }
        finished.wait()
        let statuses = outcomes.withLock { $0 }
        #expect(statuses[3] == KeychainError.duplicateItem.status)
        for index in [0, 1, 2, 4, 5] { #expect(statuses[index] == 0, "writer \(index)") }
        let found = try store.find(ItemQuery(itemClass: .genericPassword, attributes: [:], limit: .all, returning: [.attributes]),
                                   by: caller)
        #expect(found.count == 6, "the five new items and the one that was there")
        #expect(store.commits.largestBatch >= 5)
    }

    @Test("create-keychain: of processes racing to create one keychain, exactly one succeeds; the others get errSecDuplicateKeychain")
    func racingCreatesInOneProcess() throws {
        let files = files("race")
        let results = Mutex<[Int32]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            let status: Int32
            do {
                _ = try KeychainStore.create(files, password: Data("pw-\(index)".utf8), kdf: .fastForTesting())
                status = 0
            } catch let error as KeychainError { status = error.status } catch { status = -1 }
            results.withLock { $0.append(status) }
        }
        let statuses = results.withLock { $0 }
        #expect(statuses.filter { $0 == 0 }.count == 1)
        #expect(statuses.filter { $0 == KeychainError.duplicateKeychain.status }.count == 3)
    }
}

extension DurabilityTests {
    @Test("group commit: adds from four threads of one process all land, each once")
    func addsFromFourThreadsAllLand() throws {
        let store = try KeychainStore.open(files("four-threads"))
        let failures = Mutex<[String]>([])
        let threads = 4, perThread = 50
        let finished = DispatchGroup()
        for thread in 0..<threads {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                for index in 0..<perThread {
                    do {
                        _ = try store.add(item("t\(thread)-\(index)", accessibility: .whenUnlocked), by: caller)
                    } catch {
                        failures.withLock { $0.append("t\(thread)-\(index): \(error)") }
                    }
                }
            }
        }
        finished.wait()
        #expect(failures.withLock { $0 } == [])
        let found = try store.find(ItemQuery(itemClass: .genericPassword, attributes: [:], limit: .all, returning: []),
                                   by: caller)
        #expect(found.count == threads * perThread)
    }
}

extension DurabilityTests {
    /// A GroupCommit over a plain database with one table, as the store's writes use it.
    func groupCommit(_ purpose: String, siblingWait: TimeInterval) throws -> (GroupCommit, DatabaseQueue) {
        let folder = TestScratch.folder(purpose)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("batches.sqlite").path
        let database = try DatabaseQueue(path: path)
        try database.write { db in try db.execute(sql: "CREATE TABLE t (thread INTEGER, n INTEGER)") }
        return (GroupCommit(database: database, patience: 1, siblingWait: siblingWait, writerWindow: 60), database)
    }

    /// Runs `write(thread, index)` from `threads` threads, `perThread` times each, all
    /// starting together after one write each (index -1, so that every thread counts as a
    /// writer); returns how many batches `commits` made for the loop's writes.
    func writeInLockstep(_ commits: GroupCommit, threads: Int, perThread: Int,
                         _ write: @escaping @Sendable (Int, Int) -> Void) -> Int {
        let warmedUp = DispatchGroup(), go = DispatchSemaphore(value: 0), finished = DispatchGroup()
        for thread in 0..<threads {
            warmedUp.enter()
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                write(thread, -1)
                warmedUp.leave()
                go.wait()
                for index in 0..<perThread { write(thread, index) }
            }
        }
        warmedUp.wait()
        let batchesBefore = commits.batchCount
        for _ in 0..<threads { go.signal() }
        finished.wait()
        return commits.batchCount - batchesBefore
    }

    @Test("group commit: threads that write in a loop share each sync (no convoy of one-change batches)")
    func threadsWritingInALoopShareEachSync() throws {
        // A long wait for siblings, so that the test does not depend on how fast the machine
        // schedules them: each leader waits until all four have queued.
        let (commits, database) = try groupCommit("convoy", siblingWait: 1)
        let threads = 4, perThread = 25
        let batches = writeInLockstep(commits, threads: threads, perThread: perThread) { thread, index in
            _ = try? commits.perform(supersedes: false) { db in
                try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [thread, index])
            }
        }
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == threads * (perThread + 1))
        // Each thread has one change queued at a time, and each leader waits for all four:
        // every batch holds four. Without the wait, about half the batches hold one.
        #expect(batches == perThread)
    }

    @Test("group commit: a change that fails while its batch gathers the other threads' changes is undone alone; the batch's other changes commit")
    func aChangeFailingWhileTheBatchGathersIsUndoneAlone() throws {
        // As in the convoy test, each leader takes in all four threads' changes inside its
        // open transaction; thread 2's change writes a row and then fails, every time.
        let (commits, database) = try groupCommit("gather-failure", siblingWait: 1)
        let threads = 4, perThread = 10
        let failures = Mutex<[Int: Int]>([:])
        let batches = writeInLockstep(commits, threads: threads, perThread: perThread) { thread, index in
            do {
                try commits.perform(supersedes: false) { db in
                    try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [thread, index])
                    if thread == 2 && index >= 0 { throw ChangeFailed() }
                }
            } catch {
                failures.withLock { $0[thread, default: 0] += 1 }
            }
        }
        #expect(failures.withLock { $0 } == [2: perThread], "only thread 2's changes fail, each reported")
        let rows = try database.read { db in
            try Int.fetchAll(db, sql: "SELECT thread FROM t WHERE n >= 0 ORDER BY thread")
        }
        #expect(rows == [0, 1, 3].flatMap { Array(repeating: $0, count: perThread) }, "none of thread 2's rows stays")
        #expect(batches == perThread, "each batch held all four threads' changes")
    }

    @Test("group commit: a lone writer never waits for siblings")
    func aLoneWriterNeverWaits() throws {
        // If a lone writer waited for siblings that do not exist, 20 writes would take 20 s.
        let (commits, database) = try groupCommit("lone", siblingWait: 1)
        let start = Date()
        for index in 0..<20 {
            try commits.perform(supersedes: false) { db in
                try db.execute(sql: "INSERT INTO t VALUES (0, ?)", arguments: [index])
            }
        }
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 20)
        #expect(commits.batchCount == 20)
    }
}

extension DurabilityTests {
    /// Runs `changes` as one batch of a GroupCommit over a plain table: a first writer holds
    /// its own transaction open until all of them are queued behind it, so that they are
    /// committed together. Each outcome is nil (committed) or the error's description.
    func runAsOneBatch(_ commits: GroupCommit, _ changes: [@Sendable (Database) throws -> Void]) -> [Int: String?] {
        let outcomes = Mutex<[Int: String?]>([:])
        let finished = DispatchGroup()
        // Waits for `count` queued writers, for a minute at most, so that a regression fails
        // the expectations instead of hanging the run.
        @Sendable func awaitQueue(_ count: Int) -> Bool {
            let deadline = Date(timeIntervalSinceNow: 60)
            while commits.queuedCount < count {
                guard Date() < deadline else { return false }
                usleep(1_000)
            }
            return true
        }
        func start(_ body: @escaping @Sendable () -> Void) {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                body()
            }
        }
        start { _ = try? commits.perform(supersedes: false) { _ in _ = awaitQueue(changes.count + 1) } }
        _ = awaitQueue(1)
        for (index, change) in changes.enumerated() {
            start {
                do {
                    try commits.perform(supersedes: false) { db in try change(db) }
                    outcomes.withLock { $0[index] = .some(nil) }
                } catch {
                    outcomes.withLock { $0[index] = "\(error)" }
                }
            }
            // In order: the batch runs its changes in the order they queued. Once the last
            // one queued, the first writer lets the batch go, and the queue empties.
            if index < changes.count - 1 { _ = awaitQueue(index + 2) }
        }
        finished.wait()
        return outcomes.withLock { $0 }
    }

    struct ChangeFailed: Error {}

    @Test("group commit: a change that wrote rows and then failed leaves none of them; the batch's other changes commit")
    func aFailingChangeLeavesNoneOfItsWrites() throws {
        let (commits, database) = try groupCommit("partial-change", siblingWait: 0)
        let outcomes = runAsOneBatch(commits, [
            { db in try db.execute(sql: "INSERT INTO t VALUES (0, 0)") },
            { db in
                try db.execute(sql: "INSERT INTO t VALUES (1, 0)")
                try db.execute(sql: "INSERT INTO t VALUES (1, 1)")
                throw ChangeFailed()
            },
            { db in try db.execute(sql: "INSERT INTO t VALUES (2, 0)") },
        ])
        #expect(outcomes[0] == .some(nil))
        #expect(outcomes[1] != .some(nil) && outcomes[1] != nil, "the failing change reports its error")
        #expect(outcomes[2] == .some(nil))
        #expect(commits.largestBatch == 3)
        let threads = try database.read { db in try Int.fetchAll(db, sql: "SELECT thread FROM t ORDER BY thread") }
        #expect(threads == [0, 2])
    }

    @Test("group commit: when SQLite ends the whole transaction under one change (as after a full disk), every change of the batch fails and none is applied")
    func aLostTransactionFailsTheWholeBatch() throws {
        let (commits, database) = try groupCommit("lost-transaction", siblingWait: 0)
        let outcomes = runAsOneBatch(commits, [
            { db in try db.execute(sql: "INSERT INTO t VALUES (0, 0)") },
            { db in
                // What SQLite does by itself after SQLITE_FULL or an I/O error in a statement.
                try db.execute(sql: "ROLLBACK")
                throw ChangeFailed()
            },
            { db in try db.execute(sql: "INSERT INTO t VALUES (2, 0)") },
        ])
        for index in 0..<3 {
            #expect(outcomes[index] != .some(nil) && outcomes[index] != nil, "change \(index) must not report success")
        }
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 0)
        // The connection is usable again: the next change commits.
        try commits.perform(supersedes: false) { db in try db.execute(sql: "INSERT INTO t VALUES (3, 0)") }
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 1)
    }
}

extension DurabilityTests {
    @Test("superseding writes commit without a sync of their own, which the scrub's checkpoint makes, and leave the connection syncing every other commit (synchronous=FULL)")
    func supersedingWritesLeaveTheConnectionAtFull() throws {
        let store = try KeychainStore.open(files("superseding-sync"))
        func synchronous() throws -> Int? {
            try store.database.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        }
        let query = ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("a")])
        _ = try store.add(item("a"), by: caller)
        try store.update(query, with: ItemChanges(data: Data("new".utf8)), by: caller)
        #expect(try synchronous() == 2, "2 is FULL")
        try expectOnlyACopyOfTheFirstPage(in: store.files.database.path, "the update was scrubbed")
        #expect(throws: KeychainError.itemNotFound) {
            try store.delete(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("none")]), by: caller)
        }
        #expect(try synchronous() == 2)
        try store.delete(query, by: caller)
        #expect(try synchronous() == 2)
        try expectOnlyACopyOfTheFirstPage(in: store.files.database.path, "the delete was scrubbed")
    }

    /// Expects the log of the database at `path` to hold what a scrub in a process that wrote
    /// before leaves: the log's header and one frame, a byte-for-byte copy of the database
    /// file's first page (its header and schema), read from the files as a copy of them would be.
    func expectOnlyACopyOfTheFirstPage(in path: String, _ comment: Comment) throws {
        let log = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        let database = try Data(contentsOf: URL(fileURLWithPath: path))
        let pageSize = 4_096
        #expect(log.count == 32 + 24 + pageSize, comment)
        guard log.count == 32 + 24 + pageSize else { return }
        #expect(log[log.startIndex + 8..<log.startIndex + 12].elementsEqual([0, 0, 0x10, 0]), "4 KiB pages")
        #expect(log[log.startIndex + 32..<log.startIndex + 36].elementsEqual([0, 0, 0, 1]), "the frame is page 1")
        #expect(log.suffix(pageSize).elementsEqual(database.prefix(pageSize)), comment)
    }

    @Test("group commit: a superseding change whose scrub a reader blocks is still committed and synced, the connection is back at FULL, and the next write scrubs the log")
    func aBlockedScrubStillLeavesTheChangeCommitted() throws {
        let folder = TestScratch.folder("blocked-scrub")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("scrub.sqlite").path
        let database = try DatabaseQueue(path: path)
        try database.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA secure_delete = ON; CREATE TABLE t (n INTEGER)")
        }
        // As the keychain creates its files: the sync of the log opens only a private file.
        for file in [path, path + "-wal"] { #expect(chmod(file, 0o600) == 0) }
        let commits = GroupCommit(database: database, patience: 0.2)
        try commits.perform(supersedes: false) { db in try db.execute(sql: "INSERT INTO t VALUES (1), (2)") }
        // Another connection holds a snapshot that uses the log: the scrub's checkpoint cannot
        // empty the log until it ends.
        let reader = try DatabaseQueue(path: path)
        try reader.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 2)
            try commits.perform(supersedes: true) { db in try db.execute(sql: "DELETE FROM t WHERE n = 1") }
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 2, "the reader keeps its snapshot")
        }
        #expect(!WALCheckpointer.logIsEmpty(of: path), "the reader kept the scrub from emptying the log")
        let fresh = try DatabaseQueue(path: path)
        #expect(try fresh.read { db in try Int.fetchAll(db, sql: "SELECT n FROM t") } == [2])
        try fresh.close()
        #expect(try database.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 2, "2 is FULL")
        try reader.close()
        // The owed scrub runs with the next write, superseding or not.
        try commits.perform(supersedes: false) { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        try expectOnlyACopyOfTheFirstPage(in: path, "the owed scrub ran")
    }
}
