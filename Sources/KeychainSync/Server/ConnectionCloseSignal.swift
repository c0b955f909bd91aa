import NIOCore
import Synchronization

/// Tells the operations running on a connection that it closed, through one registration on
/// its close future for all of them: a callback per operation would pile up on a connection
/// that lives for days.
///
/// postgres-nio drops a query written to a channel that closed a moment before (the server
/// was killed between the check that the connection is open and the write) and leaves its
/// caller waiting for ever; an operation that hears of the close gives up at once instead.
final class ConnectionCloseSignal: Sendable {
    private struct State {
        var closed = false
        var waiters: [Int: @Sendable () -> Void] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    init(_ closeFuture: EventLoopFuture<Void>) {
        closeFuture.whenComplete { [self] _ in
            let waiters = state.withLock { state in
                state.closed = true
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter() }
        }
    }

    /// Runs `action` when the connection closes, at once if it has; the id to ``remove(_:)``
    /// it with once the operation is over (nil when it already ran).
    func register(_ action: @escaping @Sendable () -> Void) -> Int? {
        let id = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            state.nextID += 1
            state.waiters[state.nextID] = action
            return state.nextID
        }
        if id == nil { action() }
        return id
    }

    func remove(_ id: Int) {
        state.withLock { state in _ = state.waiters.removeValue(forKey: id) }
    }
}
