import Foundation

/// The thread that runs trust evaluations, as a task executor.
///
/// swift-certificates' verifier is `async`, while ``SecTrustEvaluateWithError(_:_:)`` is
/// synchronous and may be called from any thread, a Swift concurrency thread included. Had the
/// verifier run on the cooperative pool, a caller blocking a pool thread to wait for it could
/// wait for ever once every pool thread (two on a two-core machine) is such a caller. Run with
/// this executor as its preference, the verifier's task and everything it awaits that is not
/// bound to an actor stay on this thread, which nothing else blocks: waiting for it from any
/// thread cannot deadlock. Evaluations take turns on it, which costs little as they only compute.
final class TrustEvaluationThread: TaskExecutor, @unchecked Sendable {
    /// The one thread, started on first use.
    static let shared = TrustEvaluationThread()

    // `jobs` is guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init() {
        let thread = Thread { [self] in runJobs() }
        thread.name = "swift-keychain.trust-evaluation"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Runs `work` on this thread and waits for its result, blocking the calling thread.
    /// Never call it from this thread's own jobs.
    func result<Value: Sendable>(of work: @escaping @Sendable () async -> Value) -> Value {
        let outcome = Outcome<Value>()
        Task(executorPreference: self) {
            outcome.deliver(await work())
        }
        return outcome.wait()
    }
}

/// A value one thread delivers and another waits for.
private final class Outcome<Value: Sendable>: @unchecked Sendable {
    // `value` is guarded by `condition`.
    private let condition = NSCondition()
    private var value: Value?

    func deliver(_ delivered: Value) {
        condition.lock()
        value = delivered
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value { return value }
            condition.wait()
        }
    }
}
