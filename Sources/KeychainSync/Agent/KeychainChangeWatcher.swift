import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Wakes the agent when another process commits to the keychain: inotify on the keychain's
/// folder, for writes to its database and write-ahead log only (the agent's own state file
/// lies in the same folder and must not wake it). The agent then reads the change log, which
/// is a few rows, never the item table. Where inotify is unavailable the agent's periodic pass
/// still notices changes, later.
final class KeychainChangeWatcher: Sendable {
    /// The descriptor's state, shared with the reading thread, which alone closes it (a
    /// descriptor closed under a blocked read neither wakes it nor stays unused).
    private struct State {
        var stopping = false
        var closed = false
    }

    /// The inotify descriptor (tests check it is closed after ``stop()``).
    let fd: Int32
    private let watch: Int32
    private let state: Mutex<State>

    /// Starts watching; `changed` is called on a thread of the watcher's own.
    init?(directory: URL, databaseName: String, changed: @escaping @Sendable () -> Void) {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)
        let watch = inotify_add_watch(fd, directory.path, mask)
        guard watch >= 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
        self.watch = watch
        state = Mutex(State())
        let names: Set<String> = [databaseName, databaseName + "-wal"]
        let thread = Thread { [self] in
            read(names: names, changed: changed)
            state.withLock { state in
                state.closed = true
                close(fd)
            }
        }
        thread.name = "keychain change watcher"
        thread.start()
    }

    /// Reads events until the watcher stops (or the descriptor fails).
    private func read(names: Set<String>, changed: @Sendable () -> Void) {
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = Glibc.read(fd, buffer, size)
            if state.withLock({ $0.stopping }) { return }
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            if count == 0 { return }
            var offset = 0
            var relevant = false
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let length = Int(event.len)
                if length > 0, offset + header + length <= count {
                    let name = String(cString: buffer.advanced(by: offset + header).assumingMemoryBound(to: CChar.self))
                    if names.contains(name) { relevant = true }
                }
                offset += header + length
            }
            if relevant { changed() }
        }
    }

    /// Stops the watcher: removing the watch queues an event (IN_IGNORED) that wakes the
    /// read, which then sees it is stopping and closes the descriptor.
    func stop() {
        state.withLock { state in
            guard !state.stopping, !state.closed else { return }
            state.stopping = true
            inotify_rm_watch(fd, watch)
        }
    }
}
