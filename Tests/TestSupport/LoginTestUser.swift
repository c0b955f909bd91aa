import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A user with a home folder and a login password, for the tests of the PAM module: logins
/// through the system's PAM stack unlock the login keychain in that home
/// (`~/.local/share/keychains/login.keychain-db`). The home is a scratch folder of the test
/// process (mode 0700, the user's), removed at exit; the user stays in the user database with
/// no shell and a password no one knows once the process ends.
///
/// Only root can make it. Its password and keychain are the state the tests change: run its
/// tests one at a time (a serialized suite), each starting from ``reset(keychainctl:)``.
public struct LoginTestUser: Sendable {
    public static let name = "swift-keychain-login"

    public let uid: uid_t
    public let gid: gid_t
    /// The home folder, as the user database has it.
    public let home: URL

    /// Whether this process can make the user (root, with the account tools installed).
    public static var canBeMade: Bool { TestAccount.toolsAreThere }

    /// The user, made (or given a new home) once per process.
    public static func prepared() throws -> LoginTestUser {
        try preparation.get()
    }

    private static let preparation: Result<LoginTestUser, PresenceTestUserError> = Result { try prepare() }
        .mapError { $0 as? PresenceTestUserError ?? .failed("\($0)") }

    private static func prepare() throws -> LoginTestUser {
        guard canBeMade else { throw PresenceTestUserError.failed("only root with useradd, usermod, chpasswd and setpriv can make \(name)") }
        let home = TestScratch.folder("login-user-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let user = try TestAccount.make(name, home: home.path)
        guard chown(home.path, user.uid, user.gid) == 0, chmod(home.path, 0o700) == 0 else {
            throw PresenceTestUserError.failed("cannot give \(home.path) to \(name): errno \(errno)")
        }
        return LoginTestUser(uid: user.uid, gid: user.gid, home: home)
    }

    /// A new random password, different each call.
    public static func newPassword() -> String {
        let letters = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return "Lp-" + String((0..<20).map { _ in letters[Int(generator.next(upperBound: UInt(letters.count)))] })
    }

    /// Sets the user's login password, as an administrator would (chpasswd).
    public func setPassword(_ password: String) throws {
        try TestAccount.setPassword(of: Self.name, to: password)
    }

    /// The folder of the user's keychains.
    public var keychainsFolder: URL { home.appendingPathComponent(".local/share/keychains") }

    /// The environment of a program the user runs: what a login gives it, no XDG variables.
    public var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": home.path, "USER": Self.name, "LOGNAME": Self.name, "LANG": "C.UTF-8"]
    }

    /// Runs `executable` as the user (setpriv, no supplementary groups), without a terminal,
    /// in ``environment`` with `extra` added; nil when it did not end within `timeout` seconds
    /// (it is killed).
    public func run(_ executable: String, _ arguments: [String], input: String = "", environment extra: [String: String] = [:],
                    timeout: TimeInterval = 120) throws -> ProgramProcess.Outcome? {
        let command = TestAccount.commandLine(uid: uid, gid: gid, executable, arguments)
        return try TestAccount.run(command.executable, command.arguments, environment: environment.merging(extra) { $1 },
                                   input: input, timeout: timeout)
    }

    /// A path of `program` the user can run (see ``PresenceTestUser/reachablePath(of:)``).
    public func reachablePath(of program: ProgramProcess) throws -> String {
        try TestAccount.reachablePath(of: program)
    }

    /// Deletes the user's login keychain as the user (which also forgets its unlocks in the
    /// user's kernel keyring and its lock count in /dev/shm), then everything in the home.
    public func reset(keychainctl: String) throws {
        if FileManager.default.fileExists(atPath: keychainsFolder.appendingPathComponent("login.keychain-db").path) {
            let deleted = try run(keychainctl, ["delete-keychain", "login"])
            guard deleted?.status == 0 else {
                throw PresenceTestUserError.failed("keychainctl delete-keychain login as \(Self.name): \(deleted?.errors ?? "hung")")
            }
        }
        for entry in try FileManager.default.contentsOfDirectory(atPath: home.path) {
            try FileManager.default.removeItem(at: home.appendingPathComponent(entry))
        }
    }
}
