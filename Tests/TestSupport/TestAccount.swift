import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the test users share: making an account (useradd, usermod), setting its password (chpasswd),
/// and running a program as it (setpriv) without a terminal. Only root can do any of it.
public enum TestAccount {
    static let useradd = "/usr/sbin/useradd"
    static let usermod = "/usr/sbin/usermod"
    static let chpasswd = "/usr/sbin/chpasswd"
    static let setpriv = "/usr/bin/setpriv"
    static let systemPath = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]

    /// Whether this process runs as root with the account tools installed.
    static var toolsAreThere: Bool {
        geteuid() == 0 && [useradd, usermod, chpasswd, setpriv].allSatisfy { (path: String) in access(path, X_OK) == 0 }
    }

    /// The account's uid, gid and home folder, or nil when there is no such user.
    static func lookUp(_ name: String) -> (uid: uid_t, gid: gid_t, home: String)? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &found) == 0, found != nil else { return nil }
        return (entry.pw_uid, entry.pw_gid, String(cString: entry.pw_dir))
    }

    /// Makes the account `name` (no login shell, a group of its own) with `home` as its home
    /// folder in the user database (not created here), or gives an existing one that home.
    static func make(_ name: String, home: String) throws -> (uid: uid_t, gid: gid_t) {
        let scratch = TestScratch.folder("test-account")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        if lookUp(name) == nil {
            let made = try SpawnedProcess.runToEnd(
                useradd, ["--no-create-home", "--home-dir", home, "--shell", "/usr/sbin/nologin", "--user-group", name],
                environment: systemPath, outputIn: scratch)
            // Another test process may have made it meanwhile (status 9: the name is taken).
            guard made.status == 0 || lookUp(name) != nil else {
                throw PresenceTestUserError.failed("useradd \(name) failed (\(made.status)): \(made.errors)")
            }
        }
        guard let user = lookUp(name) else { throw PresenceTestUserError.failed("\(name) is not in the user database after useradd") }
        if user.home != home {
            let moved = try SpawnedProcess.runToEnd(usermod, ["--home", home, name], environment: systemPath, outputIn: scratch)
            guard moved.status == 0, lookUp(name)?.home == home else {
                throw PresenceTestUserError.failed("usermod --home \(home) \(name) failed (\(moved.status)): \(moved.errors)")
            }
        }
        return (user.uid, user.gid)
    }

    /// Sets the login password of `name`, as an administrator would (chpasswd).
    static func setPassword(of name: String, to password: String) throws {
        let scratch = TestScratch.folder("test-account-password")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let answer = scratch.appendingPathComponent("chpasswd-input")
        guard FileManager.default.createFile(atPath: answer.path, contents: Data("\(name):\(password)\n".utf8),
                                             attributes: [.posixPermissions: 0o600])
        else { throw PresenceTestUserError.failed("cannot write chpasswd's input") }
        // chpasswd fails while another process holds /etc/shadow's lock: a few tries.
        var last = ""
        for _ in 0..<20 {
            let process = try SpawnedProcess(chpasswd, [], environment: systemPath,
                                             stdin: .open(answer.path, O_RDONLY), stdout: .open("/dev/null", O_WRONLY),
                                             stderr: .open(scratch.appendingPathComponent("chpasswd-errors").path, O_WRONLY | O_CREAT | O_TRUNC))
            if process.wait().status == 0 { return }
            last = (try? String(contentsOf: scratch.appendingPathComponent("chpasswd-errors"), encoding: .utf8)) ?? ""
            usleep(200_000)
        }
        throw PresenceTestUserError.failed("chpasswd failed for \(name): \(last)")
    }

    /// The command line that runs `executable` with `arguments` as uid and gid (setpriv, no
    /// supplementary groups).
    static func commandLine(uid: uid_t, gid: gid_t, _ executable: String, _ arguments: [String]) -> (executable: String, arguments: [String]) {
        (setpriv, ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--", executable] + arguments)
    }

    /// Runs `executable` (as given: wrap it in ``commandLine(uid:gid:_:_:)`` to run it as a
    /// user) in a session of its own without a terminal, standard input `input`, and waits up
    /// to `timeout` seconds for it to end (then kills it: a test of "never hangs" fails rather
    /// than hanging itself). Nil when it had to be killed.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    input: String, timeout: TimeInterval) throws -> ProgramProcess.Outcome? {
        let scratch = TestScratch.folder("test-account-run")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let files = ["in", "out", "err"].map { scratch.appendingPathComponent($0) }
        try Data(input.utf8).write(to: files[0])
        let process = try SpawnedProcess(
            executable, arguments, environment: environment,
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

    /// A path of `program` that users other than root can run: the build folder's when every
    /// folder above it lets others through, else a copy in a scratch folder that does.
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
}
