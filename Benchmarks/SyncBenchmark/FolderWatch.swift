import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Wakes the benchmark when a file in a folder changes (inotify), so that it checks a
/// member's keychain as soon as a write may have reached it, rather than polling on a timer.
final class FolderWatch {
    private let descriptor: Int32

    init(_ folder: URL) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw BenchmarkFailure("inotify_init1: \(String(cString: strerror(errno)))") }
        guard inotify_add_watch(descriptor, folder.path, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)) >= 0 else {
            close(descriptor)
            throw BenchmarkFailure("inotify_add_watch \(folder.path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    /// Waits until something changed since the last wait, or `milliseconds` passed. Events
    /// queue from the watch's start, so a change made just before the call is not missed.
    func wait(milliseconds: Int32) {
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&watched, 1, milliseconds) > 0 else { return }
        var events = [UInt8](repeating: 0, count: 16_384)
        _ = read(descriptor, &events, events.count)
    }
}
