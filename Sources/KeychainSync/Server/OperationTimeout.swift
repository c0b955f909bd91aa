/// Runs `operation`, or fails with ``SyncServerError/unreachable(_:)`` when it has not finished
/// within `limit`: a server that accepts connections but never answers (stopped, or cut off
/// without a reset) must not hang the agent. `onTimeout` unblocks the operation (it closes its
/// connection), since the call returns only once the operation has ended.
func withTimeout<T: Sendable>(
    _ limit: Duration, onTimeout: @Sendable () -> Void = {}, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            onTimeout()
            throw SyncServerError.unreachable("the server did not answer within \(limit.components.seconds) seconds")
        }
        return value
    }
}
