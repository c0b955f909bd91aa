import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Wakes the agent when another process commits to the keychain: inotify on the keychain's
/// folder, for writes to its database and write-ahead log only (the agent's own state file
/// lies in the same folder and must not wake it). The agent then reads the change log, which
/// is a few rows, never the item table. Where inotify is unavailable the agent's periodic pass
/// still notices changes, later.
final class KeychainChangeWatcher: @unchecked Sendable {
    private let fd: Int32
    private let names: Set<String>
    private let thread: Thread?

    /// Starts watching; `changed` is called on a thread of the watcher's own.
    init?(directory: URL, databaseName: String, changed: @escaping @Sendable () -> Void) {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)
        guard inotify_add_watch(fd, directory.path, mask) >= 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
        let names: Set<String> = [databaseName, databaseName + "-wal"]
        self.names = names
        let thread = Thread {
            Self.read(fd: fd, names: names, changed: changed)
        }
        thread.name = "keychain change watcher"
        self.thread = thread
        thread.start()
    }

    private static func read(fd: Int32, names: Set<String>, changed: @Sendable () -> Void) {
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = Glibc.read(fd, buffer, size)
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

    /// Stops the watcher: closing the descriptor ends its read.
    func stop() {
        close(fd)
    }
}
