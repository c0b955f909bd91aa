import Dispatch
import Foundation
import GRDB
import Synchronization

/// How a connection waits for a lock another process holds: it tries again after pauses
/// that grow from 1 to 10 ms, until `timeout` has passed since its first try.
///
/// SQLite's own busy timeout backs off to one try every 100 ms. Between processes that
/// write in a loop the write lock is free only in short gaps between their transactions,
/// and others take it in between: a waiter that looks ten times a second can miss every gap
/// until its timeout ends, and its call fails with errSecNotAvailable although the keychain
/// was working all along (seen in stress runs of four writing processes on a loaded
/// machine). Looking a hundred times a second finds the gaps. Looking more often costs the
/// writers' throughput: in alternating 25-second stress runs, pauses of 1 ms throughout
/// gave about 30% fewer operations than SQLite's own timeout, pauses of at most 10 ms about
/// 5% fewer. The jitter keeps waiters from trying in step.
final class BusyWait: Sendable {
    /// How long one wait for a lock lasts at most, in nanoseconds.
    private let timeout: UInt64
    /// When the wait in progress began, and how many tries it made. A connection is used by
    /// one thread at a time, so it waits for one lock at a time; SQLite numbers each wait's
    /// tries from 0.
    private let currentWait = Mutex<(began: UInt64, tries: Int)>((0, 0))

    /// How many times the last wait tried again; for tests.
    var triesOfLastWait: Int { currentWait.withLock { $0.tries } }

    init(timeout: TimeInterval) {
        self.timeout = UInt64(timeout * 1e9)
    }

    /// The busy mode for GRDB's configuration of the connection that owns this wait.
    var mode: Database.BusyMode {
        .callback { [self] tries in
            guard tryAgain(afterTries: tries, at: DispatchTime.now().uptimeNanoseconds) else { return false }
            usleep(Self.pause(afterTries: tries))
            return true
        }
    }

    /// The pause before the next try, in microseconds: 1, 2 and 5 ms, then 10 ms, each
    /// between half and one and a half times that, so that waiters do not try in step.
    static func pause(afterTries tries: Int) -> UInt32 {
        let steps: [UInt32] = [1_000, 2_000, 5_000, 10_000]
        let step = steps[min(tries, steps.count - 1)]
        return UInt32.random(in: step / 2...step + step / 2)
    }

    /// Whether to try again after `tries` failed tries of this wait, at `now` (nanoseconds
    /// of a monotonic clock).
    func tryAgain(afterTries tries: Int, at now: UInt64) -> Bool {
        let began = currentWait.withLock { wait in
            if tries == 0 { wait.began = now }
            wait.tries = tries + 1
            return wait.began
        }
        return now &- began < timeout
    }
}
