import Foundation
import Security
import Testing
import TestSupport

/// Commits leave checkpoints to a background thread; the log must still be copied into the
/// database file, or it would grow without bound and every read would search it.
@Suite struct CheckpointTests {
    @Test func theLogIsCheckpointedIntoTheDatabaseWithoutAnyCommitWaitingForIt() async throws {
        let keychain = PrivateKeychain()
        let database = keychain.directory.appendingPathComponent("login.keychain-db")
        let secret = Data(repeating: 0x42, count: 1_500)
        // About 5.5 log frames per add: past the background threshold (1,000 frames) and short
        // of the 2,000 at which a commit would checkpoint by itself.
        for index in 0..<250 {
            let item = genericPassword(account: "user-\(index)").with([kSecValueData as String: secret])
            try #require(keychain.add(item) == errSecSuccess)
        }
        // The log file keeps its largest size while the keychain is open: its frames show
        // which thresholds the adds crossed. A frame is a page and its 24-byte header. The
        // commit that reaches 1,000 frames may be the last before the log starts over, when
        // the background checkpoint has copied all of it before the next add begins.
        let logFrames = (try FileManager.default.attributesOfItem(atPath: database.path + "-wal")[.size] as? Int ?? 0) / 4_120
        try #require(logFrames >= 1_000 && logFrames < 2_000, "\(logFrames) frames")
        // Until a checkpoint, every page lives in the log and the database file stays small.
        var size = 0
        for _ in 0..<200 {
            size = try FileManager.default.attributesOfItem(atPath: database.path)[.size] as? Int ?? 0
            if size > 250 * secret.count { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(size > 250 * secret.count, "the items' secrets never reached the database file")
        let found = keychain.copyMatching(genericPassword(account: "user-249").with([kSecReturnData as String: true]))
        #expect(found.result as? Data == secret)
    }
}
