import Atomics
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A count of the changes to one keychain's session entry (see ``ClassKeyAvailability``),
/// shared by every process of the user through a small file in `/dev/shm`, which lives in
/// memory and is emptied at reboot, like the kernel keyring.
///
/// Every unlock, lock and change of settings advances the count after changing the entry.
/// A process that read the entry at some count may go on using what it read while the
/// count stays the same. Without it, every use of a class A key read the kernel entry
/// again: a system call whose search of the process's keyrings cost 1.4 µs, 7% of a find
/// (measured). A lock still reaches every process at its next call, as the lock revokes
/// the entry before it advances the count.
///
/// Where the file cannot be used (no `/dev/shm`, or at its name a link, a FIFO, a file that
/// another user owns or that others may read or write), there is no count, and every use
/// reads the kernel entry.
final class SessionGeneration: Sendable {
    /// The count's shared memory, unmapped with the object; nil when there is none.
    nonisolated(unsafe) private let mapping: UnsafeMutableRawPointer?
    let path: String

    private static let mappedBytes = 64

    init(keychainID: String) {
        let path = "/dev/shm/swift-keychain-\(geteuid())-\(keychainID)"
        Self.used.withLock { _ = $0.insert(path) }
        self.path = path
        mapping = Self.map(path)
    }

    deinit {
        if let mapping { munmap(mapping, Self.mappedBytes) }
    }

    /// The count in the mapping: a view, made anew at no cost.
    private var counter: UnsafeAtomic<UInt64>? {
        mapping.map { UnsafeAtomic(at: $0.assumingMemoryBound(to: UInt64.AtomicRepresentation.self)) }
    }

    /// The count now, or nil when there is no shared count.
    func current() -> UInt64? {
        counter?.load(ordering: .sequentiallyConsistent)
    }

    /// Advances the count: after every change of the session entry.
    func advance() {
        counter?.wrappingIncrement(ordering: .sequentiallyConsistent)
    }

    /// The files of every count this process used.
    private static let used = Mutex<Set<String>>([])

    /// Removes the files of every count this process used: what a test process does at exit,
    /// for the hundreds of keychains it made. Never while the keychains are in use: a
    /// process that mapped a removed file would no longer see the others' locks.
    static func removeEveryFileUsed() {
        for path in used.withLock({ $0 }) { unlink(path) }
    }

    /// Maps the count's file, creating it (zeroed) when missing.
    private static func map(_ path: String) -> UnsafeMutableRawPointer? {
        // A link, a FIFO, another user's file, or one others may read or write could hide a
        // lock (or hang the open): not used. ``PrivateFile`` checks the descriptor.
        let fd: Int32
        do {
            guard let opened = try PrivateFile.open(path, flags: O_RDWR | O_CREAT, role: "shared lock count") else {
                keychainLogger.debug("no shared lock count (no /dev/shm); each use reads the kernel keyring",
                                     metadata: ["path": "\(path)"])
                return nil
            }
            fd = opened
        } catch {
            keychainLogger.warning("ignoring a shared lock count that is not the user's alone; each use reads the kernel keyring",
                                   metadata: ["path": "\(path)", "reason": "\(error)"])
            return nil
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        // Growing a file another process already grew changes nothing.
        if status.st_size < mappedBytes, ftruncate(fd, off_t(mappedBytes)) != 0 { return nil }
        guard let memory = mmap(nil, mappedBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
              memory != MAP_FAILED
        else { return nil }
        return memory
    }
}
