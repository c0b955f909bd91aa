import Foundation
import KeychainCore
import KeychainSync
import Testing
import TestSupport

/// One agent per keychain, and one pass at a time: an agent's pass and a removal (`sync
/// remove`, `sync leave`), which passes and then publishes, take turns on the pass lock, so
/// that neither moves the cursor back under the other.
@Suite struct SyncLockFileTests {
    func files(_ purpose: String) throws -> KeychainFiles {
        let folder = TestScratch.folder(purpose)
        let keychains = folder.appendingPathComponent("keychains")
        try FileManager.default.createDirectory(at: keychains, withIntermediateDirectories: true)
        return KeychainFiles(directory: keychains, name: "login", machineSecret: folder.appendingPathComponent("machine"))
    }

    @Test("Sync: a second agent lock is refused while the first is held, and taken once it is dropped")
    func oneAgentPerKeychain() throws {
        let files = try files("sync-agent-lock")
        var first = try SyncLockFile.take(.agent, files: files)
        #expect(first != nil)
        #expect(try SyncLockFile.take(.agent, files: files) == nil)
        // The pass lock is another lock: an agent's life does not hold it.
        #expect(try SyncLockFile.take(.pass, files: files) != nil)
        first = nil
        #expect(try SyncLockFile.take(.agent, files: files) != nil)
    }

    @Test("Sync: a removal waits for a pass under way (the pass lock) and goes on when it ends")
    func aPassAndARemovalTakeTurns() async throws {
        let files = try files("sync-pass-lock")
        var pass = try SyncLockFile.take(.pass, files: files)
        #expect(pass != nil)
        let waiting = Task { () async throws -> Bool in
            let lock = try await SyncLockFile.wait(for: .pass, files: files)
            return withExtendedLifetime(lock) { true }
        }
        // While the pass holds it, the wait goes on (a broken lock would end it at once).
        try await Task.sleep(for: .milliseconds(300))
        #expect(try SyncLockFile.take(.pass, files: files) == nil)
        pass = nil
        #expect(try await waiting.value)
    }

    @Test("Sync: a wait for the pass lock ends when its task is cancelled, with a clear error")
    func aWaitEndsWhenCancelled() async throws {
        let files = try files("sync-pass-lock-cancel")
        let pass = try SyncLockFile.take(.pass, files: files)
        let waiting = Task { () async throws -> String in
            do {
                _ = try await SyncLockFile.wait(for: .pass, files: files)
                return "taken"
            } catch {
                return "\(error)"
            }
        }
        waiting.cancel()
        let outcome = try await waiting.value
        #expect(outcome.contains("stopped while waiting"), "\(outcome)")
        withExtendedLifetime(pass) {}
    }
}
