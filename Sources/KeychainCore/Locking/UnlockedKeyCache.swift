import CKernelKeyring
import Foundation
import Synchronization

/// Where unlocked class keys wait between calls and between processes: the Linux kernel
/// keyring of the user, or, where that is unavailable, this process's memory.
///
/// The user keyring (keyrings(7)) outlives each process and is emptied at reboot, which is
/// what "after first unlock" needs: a later process reads class C keys without the password
/// and without rerunning the KDF. Its entries carry the user's permission only, and a
/// timeout that the kernel enforces (the auto-lock). Revoking an entry makes every later
/// read of it fail at once, in every process: that is how a lock reaches the others.
///
/// Where the keyring cannot be used (no such system call, or a container's seccomp policy
/// refuses it), entries live in this process only: unlocks last for its life.
final class UnlockedKeyCache: Sendable {
    /// A handle on a stored entry: its kernel serial number (positive), or the negated id of
    /// an entry in process memory.
    typealias Handle = Int32

    /// The process's cache: the kernel keyring, unless `KEYCHAIN_NO_KERNEL_KEYRING` is set
    /// (to any value), which keeps unlocks in this process as where the keyring is missing.
    // getenv: one variable, without copying the whole environment into a dictionary.
    static let shared = UnlockedKeyCache(useKernelKeyring: getenv("KEYCHAIN_NO_KERNEL_KEYRING") == nil)

    private struct MemoryEntry {
        var description: String
        var payload: SecretBytes
        var expiry: Date?
    }

    private struct State {
        var usesKernel: Bool
        var memory: [Handle: MemoryEntry] = [:]
        var nextHandle: Handle = -1
        /// Every description this process stored or looked up.
        var used: Set<String> = []
    }

    private let state: Mutex<State>

    /// Possessor and user: view, read, write, search, link, set attributes; nobody else.
    private static let userOnlyPermissions: UInt32 = 0x3f3f_0000

    init(useKernelKeyring: Bool = true) {
        state = Mutex(State(usesKernel: useKernelKeyring))
    }

    /// Whether new entries go to the kernel keyring (false once it has refused us).
    var usesKernelKeyring: Bool { state.withLock { $0.usesKernel } }

    /// Whether an unlock stored now would reach this user's other processes: the kernel
    /// keyring is in use and answers (a container's seccomp policy refuses it with EPERM).
    var reachesOtherProcesses: Bool {
        state.withLock { $0.usesKernel } && ckk_user_keyring_id() > 0
    }

    /// Stores `payload` under `description`, replacing an entry of the same description,
    /// with a timeout in seconds (nil: none). Returns the entry's handle.
    ///
    /// An entry the kernel will not take goes to process memory. When the keyring refuses
    /// every entry (no such system call, or a seccomp policy) later ones go there at once;
    /// when only this one is refused (the user's key quota is full, EDQUOT), the entries
    /// already in the keyring stay there and go on working.
    @discardableResult
    func store(_ payload: SecretBytes, as description: String, timeout: UInt32?) -> Handle {
        state.withLock { state in
            state.used.insert(description)
            if state.usesKernel {
                let key = payload.withUnsafeBytes { ckk_add_user_key(description, $0.baseAddress, $0.count) }
                if key > 0 {
                    if ckk_set_permissions(key, Self.userOnlyPermissions) == 0,
                       ckk_set_timeout(key, timeout ?? 0) == 0 {
                        state.memory = state.memory.filter { $0.value.description != description }
                        return key
                    }
                    _ = ckk_revoke(key)
                    _ = ckk_unlink_from_user_keyring(key)
                }
                let reason = errnoText()
                if errno == EDQUOT {
                    keychainLogger.notice(
                        "the kernel keyring's quota is full; this unlock stays in this process only",
                        metadata: ["reason": "\(reason)"])
                } else {
                    keychainLogger.notice(
                        "the kernel keyring is unavailable; unlocked keychains stay unlocked for this process only",
                        metadata: ["reason": "\(reason)"])
                    state.usesKernel = false
                }
            }
            state.memory = state.memory.filter { $0.value.description != description }
            let handle = state.nextHandle
            state.nextHandle -= 1
            state.memory[handle] = MemoryEntry(
                description: description, payload: payload,
                expiry: timeout.map { Date().addingTimeInterval(TimeInterval($0)) })
            return handle
        }
    }

    /// The entry stored under `description`, if there is one that has not expired.
    func find(_ description: String) -> (handle: Handle, payload: SecretBytes)? {
        state.withLock { state in
            state.used.insert(description)
            if let (handle, entry) = state.memory.first(where: { $0.value.description == description }),
               Self.isLive(entry) {
                return (handle, entry.payload)
            }
            if state.usesKernel {
                let key = ckk_search_user_key(description)
                guard key > 0, case .changed(let payload) = Self.readKernel(key, unlessEqualTo: nil) else { return nil }
                return (key, payload)
            }
            return nil
        }
    }

    enum Reading: Equatable {
        case gone
        case unchanged
        case changed(SecretBytes)
    }

    /// Reads a handle's payload, as each use of a class A key does, without copying it out
    /// when it equals `known`.
    func read(_ handle: Handle, unlessEqualTo known: SecretBytes) -> Reading {
        state.withLock { state in
            if handle > 0 { return Self.readKernel(handle, unlessEqualTo: known) }
            guard let entry = state.memory[handle], Self.isLive(entry) else { return .gone }
            return entry.payload == known ? .unchanged : .changed(entry.payload)
        }
    }

    /// Restarts an entry's timeout (nil: none), as a use of the keychain does.
    func touch(_ handle: Handle, timeout: UInt32?) {
        state.withLock { state in
            if handle > 0 {
                _ = ckk_set_timeout(handle, timeout ?? 0)
            } else {
                state.memory[handle]?.expiry = timeout.map { Date().addingTimeInterval(TimeInterval($0)) }
            }
        }
    }

    /// Removes the entry stored under `description`, for every process at once.
    func remove(_ description: String) {
        state.withLock { state in
            state.memory = state.memory.filter { $0.value.description != description }
            guard state.usesKernel else { return }
            // Revoked first: a process that holds the serial fails on its next read.
            // Bounded: another process may be storing the entry again as we remove it.
            for _ in 0..<8 {
                let key = ckk_search_user_key(description)
                guard key > 0 else { break }
                _ = ckk_revoke(key)
                _ = ckk_unlink_from_user_keyring(key)
            }
        }
    }

    /// Removes every entry this process stored or looked up: what a test process does at
    /// exit, so that the keychains it made do not fill the user's key quota (200 keys and
    /// 20,000 bytes for a user other than root) run after run.
    func removeEverythingUsed() {
        for description in state.withLock({ $0.used }) { remove(description) }
    }

    private static func isLive(_ entry: MemoryEntry) -> Bool {
        entry.expiry.map { $0 > Date() } ?? true
    }

    /// Larger than any payload (see ``UnlockPayload``).
    private static let maximumPayload = 512

    /// One KEYCTL_READ into a buffer on the stack, zeroed after; the payload is copied out
    /// only when it differs from `known` (nil: always).
    private static func readKernel(_ key: Int32, unlessEqualTo known: SecretBytes?) -> Reading {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumPayload) { buffer in
            defer { if let start = buffer.baseAddress { explicit_bzero(start, buffer.count) } }
            let length = ckk_read(key, buffer.baseAddress, buffer.count)
            guard length >= 0, length <= buffer.count else { return .gone }
            let read = UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[0..<length])
            // memcmp: the generic elementsEqual was 3% of a find (perf).
            if let known, length == known.count, length == 0
                || known.withUnsafeBytes({ memcmp($0.baseAddress!, read.baseAddress!, length) == 0 }) {
                return .unchanged
            }
            return .changed(SecretBytes(copying: read))
        }
    }
}
