import Dispatch
import Security

/// Runs blocking `SecItem` work for ``AsyncKeychain`` on a dispatch queue, so that a wait
/// in Keychain Services (a busy database, a lock) holds a thread of that queue instead of
/// the caller's thread or one of Swift's cooperative threads.
enum BackgroundCalls {
    private static let queue = DispatchQueue(label: "swift-keychain.Keychain.calls", attributes: .concurrent)

    /// Runs `operation` on the queue and returns its outcome.
    ///
    /// A task cancelled before the operation starts gets `errSecUserCanceled`; once started,
    /// the operation completes, so a save is never half-done by cancellation.
    static func run<Value: Sendable>(
        _ operation: @escaping @Sendable () throws(KeychainError) -> Value
    ) async throws(KeychainError) -> Value {
        if Task.isCancelled {
            throw KeychainError(.userCanceled, reason: "the task was cancelled before the operation started")
        }
        let body = Platform.keepingCallersKeychain { Result(catching: operation) }
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, KeychainError>, Never>) in
            queue.async { continuation.resume(returning: body()) }
        }
        return try outcome.get()
    }
}
