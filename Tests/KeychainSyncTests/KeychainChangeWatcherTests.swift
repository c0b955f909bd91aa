import Foundation
@testable import KeychainSync
import Synchronization
import Testing
import TestSupport

/// The agent's wake-up on keychain writes (KeychainChangeWatcher): a write to the database
/// wakes it, and stopping it ends its thread and closes its inotify descriptor, so a
/// long-lived process does not keep one per agent run.
@Suite struct KeychainChangeWatcherTests {
    /// What the process's descriptor `fd` is: its /proc link, or nil when it is closed.
    static func descriptor(_ fd: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
    }

    func watcher(_ purpose: String, changed: @escaping @Sendable () -> Void = {}) throws -> (KeychainChangeWatcher, URL) {
        let folder = TestScratch.folder(purpose)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let watcher = try #require(KeychainChangeWatcher(directory: folder, databaseName: "login.keychain-db", changed: changed))
        return (watcher, folder)
    }

    @Test("Sync agent: a write to the keychain's database wakes the watcher")
    func wakesOnTheDatabase() throws {
        let wakes = Mutex(0)
        let (watcher, folder) = try watcher("change-watcher-wakes") { wakes.withLock { $0 += 1 } }
        defer { watcher.stop() }
        try Data("db".utf8).write(to: folder.appendingPathComponent("login.keychain-db"))
        try eventually(10, "the database write wakes the watcher") { wakes.withLock { $0 } > 0 }
    }

    @Test("Sync agent: stopping a watcher that saw no event ends its blocked read and closes its descriptor")
    func stopClosesTheDescriptor() throws {
        let (watcher, _) = try watcher("change-watcher-stops")
        #expect(Self.descriptor(watcher.fd) == "anon_inode:inotify")
        watcher.stop()
        // Closed by its thread (the number may be reused at once by another test's file).
        try eventually(10, "stop closes the inotify descriptor") { Self.descriptor(watcher.fd) != "anon_inode:inotify" }
    }
}
