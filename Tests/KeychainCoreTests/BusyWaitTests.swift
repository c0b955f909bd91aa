import Foundation
import GRDB
import Synchronization
import Testing
import TestSupport
@testable import KeychainCore

@Suite struct BusyWaitTests {
    @Test("a call waiting for another process's lock keeps trying until the timeout since its first try, then gives up (errSecNotAvailable)")
    func triesUntilTheTimeoutOfEachWait() {
        let wait = BusyWait(timeout: 10)
        let second: UInt64 = 1_000_000_000
        #expect(wait.tryAgain(afterTries: 0, at: 100 * second))
        #expect(wait.tryAgain(afterTries: 4_000, at: 105 * second))
        #expect(wait.tryAgain(afterTries: 9_000, at: 110 * second - 1))
        #expect(!wait.tryAgain(afterTries: 9_001, at: 110 * second))
        // A later wait has a timeout of its own.
        #expect(wait.tryAgain(afterTries: 0, at: 200 * second))
        #expect(wait.tryAgain(afterTries: 3, at: 209 * second))
    }

    @Test("the pauses between tries grow from about 1 ms to about 10 ms and stay there, with jitter")
    func pausesGrowToTenMilliseconds() {
        for tries in 0..<200 {
            let pause = BusyWait.pause(afterTries: tries)
            #expect(pause >= 500 && pause <= 15_000, "pause \(pause) µs after \(tries) tries")
            if tries >= 3 { #expect(pause >= 5_000, "pause \(pause) µs after \(tries) tries") }
        }
    }

    @Test("a write waiting for another connection's transaction succeeds once it ends, having looked often enough to find the short gaps between other processes' transactions")
    func aWaitingWriterLooksOftenAndSucceeds() throws {
        let folder = TestScratch.folder("busy-wait")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("busy.sqlite").path
        let holder = try DatabaseQueue(path: path)
        try holder.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE t (x INTEGER)")
        }
        let wait = BusyWait(timeout: 10)
        var configuration = Configuration()
        configuration.busyMode = wait.mode
        let waiter = try DatabaseQueue(path: path, configuration: configuration)
        let outcome = Mutex<String?>(nil)
        let finished = DispatchSemaphore(value: 0)
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            Thread.detachNewThread {
                do {
                    try waiter.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
                    outcome.withLock { $0 = "ok" }
                } catch {
                    outcome.withLock { $0 = "\(error)" }
                }
                finished.signal()
            }
            sleep(1)
            try db.execute(sql: "COMMIT")
        }
        #expect(finished.wait(timeout: .now() + 30) == .success)
        #expect(outcome.withLock { $0 } == "ok")
        #expect(try waiter.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 1)
        // SQLite's own timeout would have looked about 19 times in that second (its pauses
        // grow to 100 ms); pauses of at most 10 ms look about 100 times, and 50 leaves room
        // for a loaded machine's late wake-ups.
        #expect(wait.triesOfLastWait >= 50, "looked \(wait.triesOfLastWait) times in a second")
    }
}
