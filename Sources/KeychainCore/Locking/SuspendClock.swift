#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// How long the machine has been suspended since it started: CLOCK_BOOTTIME counts
/// suspended time and CLOCK_MONOTONIC does not, so their difference grows only while the
/// machine sleeps. Comparing it with its value at unlock tells whether the machine slept
/// since, for "lock on sleep", with two vDSO reads and no daemon to listen to.
enum SuspendClock {
    /// Added to the reading, so that tests can play a suspend.
    static let offsetForTesting = Mutex<Int64>(0)

    static func suspendedNanoseconds() -> Int64 {
        #if os(Linux)
        var boot = timespec(), monotonic = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        let difference = (Int64(boot.tv_sec) - Int64(monotonic.tv_sec)) * 1_000_000_000
            + Int64(boot.tv_nsec) - Int64(monotonic.tv_nsec)
        return difference + offsetForTesting.withLock { $0 }
        #else
        return offsetForTesting.withLock { $0 }
        #endif
    }
}
