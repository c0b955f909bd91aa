import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A user with a known login password, for the tests that prove presence through the system's
/// own PAM: programs run as this user (not root, so PAM's pam_unix checks the password through
/// the setgid `unix_chkpwd`, the path every user's program takes), on a pseudo-terminal that is
/// their controlling terminal or with none.
///
/// Only root can make the user: suites that need it are enabled with ``canBeMade`` and name
/// the reason when they are not. The user has no home and no login shell; making it again (or
/// from two test processes at once) only sets its password again: two test processes that
/// use the user at the same time would set two passwords, so run one at a time.
///
/// To run any program as the user from a test:
///
/// ```swift
/// let user = try PresenceTestUser.prepared()
/// let session = try user.startOnTerminal(try user.reachablePath(of: ProgramProcess("PresenceWorker")),
///                                        ["evaluate:deviceOwnerAuthentication"])
/// try session.waitFor("Password: ")
/// session.type(PresenceTestUser.password)
/// let outcome = try session.finish()
/// ```
public struct PresenceTestUser: Sendable {
    public static let name = "swift-keychain-presence"
    /// Drawn anew by each test process, which sets it: known to that process only, so that the
    /// user left on the machine has no password anyone knows (and no shell, no home).
    public static let password: String = {
        let letters = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return "pw-" + String((0..<24).map { _ in letters[Int(generator.next(upperBound: UInt(letters.count)))] })
    }()

    public let uid: uid_t
    public let gid: gid_t

    /// Whether this process can make the user and run programs as it (it runs as root, with
    /// useradd, usermod, chpasswd and setpriv installed).
    public static var canBeMade: Bool { TestAccount.toolsAreThere }

    /// The user, made (or its password set again) once per process.
    public static func prepared() throws -> PresenceTestUser {
        try preparation.get()
    }

    private static let preparation: Result<PresenceTestUser, PresenceTestUserError> = Result { try prepare() }
        .mapError { $0 as? PresenceTestUserError ?? .failed("\($0)") }

    private static func prepare() throws -> PresenceTestUser {
        guard canBeMade else { throw PresenceTestUserError.failed("only root with useradd, chpasswd and setpriv can make \(name)") }
        let user = try TestAccount.make(name, home: "/nonexistent")
        try TestAccount.setPassword(of: name, to: password)
        return PresenceTestUser(uid: user.uid, gid: user.gid)
    }

    /// The environment of a program run as the user: a plain one (none of the test process's
    /// folders, which the user cannot write), then `extra`.
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "C.UTF-8"].merging(extra) { $1 }
    }

    /// The command line that runs `executable` with `arguments` as the user (setpriv, no
    /// supplementary groups).
    public func commandLine(_ executable: String, _ arguments: [String]) -> (executable: String, arguments: [String]) {
        TestAccount.commandLine(uid: uid, gid: gid, executable, arguments)
    }

    /// Starts `executable` as the user on a new pseudo-terminal, its controlling terminal.
    public func startOnTerminal(_ executable: String, _ arguments: [String],
                                environment: [String: String] = [:]) throws -> TerminalSession {
        let command = commandLine(executable, arguments)
        return try TerminalSession(executable: command.executable, command.arguments,
                                   environment: Self.environment(environment))
    }

    /// Runs `executable` as the user in a session of its own without a terminal, standard
    /// input `input`, and waits up to `timeout` seconds for it to end (then kills it: a test
    /// of "never hangs" fails rather than hanging itself). Nil when it had to be killed.
    public func runWithoutTerminal(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                                   input: String = "", timeout: TimeInterval = 60) throws -> ProgramProcess.Outcome? {
        let command = commandLine(executable, arguments)
        return try TestAccount.run(command.executable, command.arguments, environment: Self.environment(environment),
                                   input: input, timeout: timeout)
    }

    /// A path of `program` the user can run: the build folder's when every folder above it
    /// lets others through, else a copy in a scratch folder that does.
    public func reachablePath(of program: ProgramProcess) throws -> String {
        try TestAccount.reachablePath(of: program)
    }

    /// Writes an agent for `KEYCHAIN_ASKPASS` in a folder the user can read: a shell script
    /// with `body` (its first argument is the prompt), mode 0755.
    public static func askpassAgent(_ body: String) throws -> String {
        let folder = TestScratch.folder("askpass")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        chmod(folder.deletingLastPathComponent().path, 0o755)
        let script = folder.appendingPathComponent("askpass")
        // Written through a close-on-exec descriptor: a copy of it in a child another thread
        // is starting would make running the script fail (ETXTBSY).
        let descriptor = open(script.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw PresenceTestUserError.failed("cannot create \(script.path): errno \(errno)") }
        defer { close(descriptor) }
        let bytes = Array("#!/bin/sh\n\(body)\n".utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw PresenceTestUserError.failed("cannot write \(script.path): errno \(errno)") }
            written += count
        }
        fchmod(descriptor, 0o755)
        return script.path
    }
}

public enum PresenceTestUserError: Error, CustomStringConvertible, Sendable {
    case failed(String)

    public var description: String {
        switch self {
        case .failed(let reason): reason
        }
    }
}
