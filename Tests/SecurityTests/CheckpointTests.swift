import Foundation
import Security
import Testing
import TestTags
import TestSupport

/// Commits leave checkpoints to a background thread; the log must still be copied into the
/// database file, or it would grow without bound and every read would search it.
@Suite struct CheckpointTests {
    @Test(.tags(.slow)) func theLogIsCheckpointedIntoTheDatabaseWithoutAnyCommitWaitingForIt() async throws {
        let keychain = PrivateKeychain()
        let database = keychain.directory.appendingPathComponent("login.keychain-db")
        let secret = Data(repeating: 0x42, count: 1_500)
        // About 6 log frames per add: well past the background threshold (1,000 frames) and
        // short of the 32,000 at which a commit would checkpoint by itself.
        for index in 0..<1_000 {
            let item = genericPassword(account: "user-\(index)").with([kSecValueData as String: secret])
            try #require(keychain.add(item) == errSecSuccess)
        }
        // Until a checkpoint, every page lives in the log and the database file stays small.
        var size = 0
        for _ in 0..<200 {
            size = try FileManager.default.attributesOfItem(atPath: database.path)[.size] as? Int ?? 0
            if size > 1_000_000 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(size > 1_000_000, "the 1.5 MB of items never reached the database file")
        let found = keychain.copyMatching(genericPassword(account: "user-999").with([kSecReturnData as String: true]))
        #expect(found.result as? Data == secret)
    }
}
