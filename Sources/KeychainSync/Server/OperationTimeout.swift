import Synchronization

/// Runs `operation`, or fails with ``SyncServerError/unreachable(_:)`` when it has not finished
/// within `limit`: a server that accepts connections but never answers (stopped, restarting, or
/// cut off without a reset) must not hang the agent.
///
/// At the deadline the caller goes on at once: the operation is cancelled and `onTimeout` runs
/// to unblock it (it closes its connection), but it is not waited for, since a connection
/// attempt or query that ignores both would otherwise hold the caller forever. A result that
/// still comes later is handed to `discardLate` (to close a connection made too late).
///
/// With `abandonedBy`, the caller also goes on, with ``SyncServerError/unreachable(_:)``, as
/// soon as the connection the operation runs on closes (see ``ConnectionCloseSignal``).
func withTimeout<T: Sendable>(
    _ limit: Duration, onTimeout: @escaping @Sendable () -> Void = {},
    discardLate: @escaping @Sendable (T) async -> Void = { _ in },
    abandonedBy closing: ConnectionCloseSignal? = nil,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = TimeoutOutcome<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            outcome.start(continuation)
            let work = Task {
                do {
                    let value = try await operation()
                    if !outcome.finish(.success(value)) { await discardLate(value) }
                } catch {
                    outcome.finish(.failure(error))
                }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled else { return }
                if outcome.finish(.failure(SyncServerError.unreachable(
                    "the server did not answer within \(limit.components.seconds) seconds"))) {
                    work.cancel()
                    onTimeout()
                }
            }
            let waiter = closing?.register {
                if outcome.finish(.failure(SyncServerError.unreachable("the connection to the server closed"))) {
                    work.cancel()
                }
            }
            outcome.onFinish {
                work.cancel()
                timer.cancel()
                if let waiter { closing?.remove(waiter) }
            }
        }
    } onCancel: {
        outcome.finish(.failure(CancellationError()))
    }
}

/// The one result of a ``withTimeout(_:onTimeout:discardLate:_:)`` call: the first of the
/// operation, the deadline and cancellation resumes the caller; the others find it done.
private final class TimeoutOutcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, Error>?
        var early: Result<T, Error>?
        var done = false
        var cleanup: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, Error>) {
        let early = state.withLock { state -> Result<T, Error>? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    /// Registers what to stop once a result is in (the other tasks).
    func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard !state.done else { return true }
            state.cleanup = cleanup
            return false
        }
        if runNow { cleanup() }
    }

    /// Resumes the caller with `result` unless a result came first; whether it was the first.
    @discardableResult
    func finish(_ result: Result<T, Error>) -> Bool {
        let (first, continuation, cleanup) = state.withLock { state -> (Bool, CheckedContinuation<T, Error>?, (@Sendable () -> Void)?) in
            guard !state.done else { return (false, nil, nil) }
            state.done = true
            let continuation = state.continuation
            state.continuation = nil
            if continuation == nil { state.early = result }
            let cleanup = state.cleanup
            state.cleanup = nil
            return (true, continuation, cleanup)
        }
        continuation?.resume(with: result)
        cleanup?()
        return first
    }
}
