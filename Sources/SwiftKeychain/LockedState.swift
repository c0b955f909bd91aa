import Foundation

/// A value guarded by a lock, for the classes of this module that hold mutable state and
/// must still be `Sendable` (``PasswordManager``, ``KeychainItemWrapper``).
///
/// `Synchronization.Mutex` would say the same, but it needs macOS 15 / iOS 18 and this
/// module builds for macOS 13 against Apple's Security framework; `NSLock` exists on every
/// platform the package supports. The lock is the only access to `value`, which is why the
/// type can promise `Sendable`; `Value` is `Sendable` so nothing shared escapes it unguarded.
final class LockedState<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock for the whole call.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
