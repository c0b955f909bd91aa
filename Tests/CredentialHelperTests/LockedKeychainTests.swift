import Foundation
import Testing

/// A locked keychain: both helpers say so and name the command that unlocks it, since git
/// and Docker run them where no password can be asked for.
@Suite struct LockedKeychainTests {
    let user = CredentialHelperUser()

    @Test func bothHelpersNameTheUnlockCommandWhenTheKeychainIsLocked() throws {
        #expect(try user.keychainctl("create-keychain", "-p", "right", "login").status == 0)
        let stored = try user.gitHelper("store", CredentialHelperUser.lines(
            "protocol=https", "host=git.example.com", "username=alice", "password=hunter2"))
        #expect(stored.status == 0, "\(stored.errors)")
        let dockerStored = try user.docker(
            "store", "{\"ServerURL\":\"https://registry.example.com\",\"Username\":\"alice\",\"Secret\":\"hunter2\"}")
        #expect(dockerStored.status == 0, "\(dockerStored.output)")
        #expect(try user.keychainctl("lock-keychain", "login").status == 0)

        let git = try user.gitHelper("get", CredentialHelperUser.lines("protocol=https", "host=git.example.com"))
        #expect(git.status == 1)
        #expect(git.output == "")
        #expect(git.errors == "git-credential-keychain: get failed: SecItemCopyMatching: User interaction is not allowed. "
                + "(-25308); the keychain login is locked: unlock it with keychainctl unlock-keychain login\n")
        let docker = try user.docker("get", "https://registry.example.com")
        #expect(docker.status == 1)
        #expect(docker.output == "SecItemCopyMatching: User interaction is not allowed. "
                + "(-25308); the keychain login is locked: unlock it with keychainctl unlock-keychain login\n")
    }
}
