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
    /// useradd, chpasswd and setpriv installed).
    public static var canBeMade: Bool {
        geteuid() == 0 && [useradd, chpasswd, setpriv].allSatisfy { (path: String) in access(path, X_OK) == 0 }
    }

    /// The user, made (or its password set again) once per process.
    public static func prepared() throws -> PresenceTestUser {
        try preparation.get()
    }

    private static let useradd = "/usr/sbin/useradd"
    private static let chpasswd = "/usr/sbin/chpasswd"
    private static let setpriv = "/usr/bin/setpriv"

    private static let preparation: Result<PresenceTestUser, PresenceTestUserError> = Result { try prepare() }
        .mapError { $0 as? PresenceTestUserError ?? .failed("\($0)") }

    private static func prepare() throws -> PresenceTestUser {
        guard canBeMade else { throw PresenceTestUserError.failed("only root with useradd, chpasswd and setpriv can make \(name)") }
        let scratch = TestScratch.folder("presence-user")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        if lookUp() == nil {
            let made = try SpawnedProcess.runToEnd(
                useradd, ["--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", "--user-group", name],
                environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], outputIn: scratch)
            // Another test process may have made it meanwhile (status 9: the name is taken).
            guard made.status == 0 || lookUp() != nil else {
                throw PresenceTestUserError.failed("useradd \(name) failed (\(made.status)): \(made.errors)")
            }
        }
        guard let user = lookUp() else { throw PresenceTestUserError.failed("\(name) is not in the user database after useradd") }
        let answer = scratch.appendingPathComponent("chpasswd-input")
        guard FileManager.default.createFile(atPath: answer.path, contents: Data("\(name):\(password)\n".utf8),
                                             attributes: [.posixPermissions: 0o600])
        else { throw PresenceTestUserError.failed("cannot write chpasswd's input") }
        // chpasswd fails while another process holds /etc/shadow's lock: a few tries.
        var last = ""
        for _ in 0..<20 {
            let process = try SpawnedProcess(chpasswd, [], environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"],
                                             stdin: .open(answer.path, O_RDONLY), stdout: .open("/dev/null", O_WRONLY),
                                             stderr: .open(scratch.appendingPathComponent("chpasswd-errors").path, O_WRONLY | O_CREAT | O_TRUNC))
            if process.wait().status == 0 { return user }
            last = (try? String(contentsOf: scratch.appendingPathComponent("chpasswd-errors"), encoding: .utf8)) ?? ""
            usleep(200_000)
        }
        throw PresenceTestUserError.failed("chpasswd failed for \(name): \(last)")
    }

    private static func lookUp() -> PresenceTestUser? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &found) == 0, found != nil else { return nil }
        return PresenceTestUser(uid: entry.pw_uid, gid: entry.pw_gid)
    }

    /// The environment of a program run as the user: a plain one (none of the test process's
    /// folders, which the user cannot write), then `extra`.
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "C.UTF-8"].merging(extra) { $1 }
    }

    /// The command line that runs `executable` with `arguments` as the user (setpriv, no
    /// supplementary groups).
    public func commandLine(_ executable: String, _ arguments: [String]) -> (executable: String, arguments: [String]) {
        (Self.setpriv, ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--", executable] + arguments)
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
        let scratch = TestScratch.folder("presence-run")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let files = ["in", "out", "err"].map { scratch.appendingPathComponent($0) }
        try Data(input.utf8).write(to: files[0])
        let command = commandLine(executable, arguments)
        let process = try SpawnedProcess(
            command.executable, command.arguments, environment: Self.environment(environment),
            stdin: .open(files[0].path, O_RDONLY),
            stdout: .open(files[1].path, O_WRONLY | O_CREAT | O_TRUNC),
            stderr: .open(files[2].path, O_WRONLY | O_CREAT | O_TRUNC),
            newSession: true)
        let deadline = Date().addingTimeInterval(timeout)
        var termination = process.poll()
        while termination == nil && Date() < deadline {
            usleep(20_000)
            termination = process.poll()
        }
        guard let termination else {
            process.kill()
            process.wait()
            return nil
        }
        return ProgramProcess.Outcome(status: termination.status,
                                      output: try String(contentsOf: files[1], encoding: .utf8),
                                      errors: try String(contentsOf: files[2], encoding: .utf8))
    }

    /// A path of `program` the user can run: the build folder's when every folder above it
    /// lets others through, else a copy in a scratch folder that does.
    public func reachablePath(of program: ProgramProcess) throws -> String {
        try Self.reachablePath(of: program)
    }

    /// A path of `program` that any user can run (see ``reachablePath(of:)``).
    public static func reachablePath(of program: ProgramProcess) throws -> String {
        var folder = program.executable.deletingLastPathComponent()
        var reachable = Self.othersMay(program.executable.path, S_IROTH | S_IXOTH)
        while reachable && folder.path != "/" {
            reachable = Self.othersMay(folder.path, S_IXOTH)
            folder = folder.deletingLastPathComponent()
        }
        if reachable { return program.executable.path }
        let copies = TestScratch.folder("presence-programs")
        let copy = try program.installed(in: copies, entitlements: nil)
        for path in [copies.path, copies.deletingLastPathComponent().path] { chmod(path, 0o755) }
        chmod(copy.executable.path, 0o755)
        return copy.executable.path
    }

    private static func othersMay(_ path: String, _ bits: mode_t) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & bits == bits
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
