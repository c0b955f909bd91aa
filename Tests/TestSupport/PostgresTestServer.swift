import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server of the distribution's packages (`/usr/lib/postgresql/<n>/bin`,
/// the newest found), made for one test with `initdb` and run with `pg_ctl`: on a free
/// loopback port (password authentication, SCRAM) and on a Unix socket (trust), optionally
/// with TLS under a CA made with `openssl`. Root cannot run PostgreSQL, so as root every
/// server program runs as the `postgres` user (or `nobody`) through `setpriv`, in a folder
/// given to that user.
///
/// The folder is a short one in /tmp rather than a TestScratch folder: the socket's path
/// must fit in 107 bytes, and the unprivileged user must be able to reach it. Use
/// ``with(tls:_:)``, which always stops the server and removes the folder, also when the
/// test fails.
public final class PostgresTestServer: @unchecked Sendable {
    /// The database the addresses name, created at start.
    public static let database = "keychain"
    /// The superuser, who connects with ``password`` over TCP.
    public static let user = "sync_test"

    public let folder: URL
    public let dataFolder: URL
    public let socketFolder: URL
    public let port: Int
    public let password: String
    /// The CA that signed the server's certificate (for `sslrootcert`), when TLS is on.
    public let caCertificate: URL?
    /// A CA that did not sign it (a wrong `sslrootcert`), when TLS is on.
    public let otherCACertificate: URL?

    private let binaries: URL
    private let owner: (uid: uid_t, gid: gid_t)?
    private var isRemoved = false

    /// Starts a server for `body` and stops it afterwards, whatever happens.
    public static func with<T>(tls: Bool = false, _ body: (PostgresTestServer) async throws -> T) async throws -> T {
        let server = try PostgresTestServer(tls: tls)
        defer { server.remove() }
        return try await body(server)
    }

    /// Whether the distribution's PostgreSQL is installed (Scripts/test installs it).
    public static var isInstalled: Bool { findBinaries() != nil }

    public init(tls: Bool = false) throws {
        guard let binaries = Self.findBinaries() else {
            throw PostgresTestServerError.failed("no PostgreSQL in /usr/lib/postgresql/*/bin (install the postgresql package)")
        }
        self.binaries = binaries
        folder = try Self.makeFolder()
        dataFolder = folder.appendingPathComponent("data")
        socketFolder = folder.appendingPathComponent("socket")
        password = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        owner = geteuid() == 0 ? try Self.unprivilegedUser() : nil
        port = try Self.freeLoopbackPort()
        var certificates: (ca: URL, otherCA: URL)?
        do {
            try FileManager.default.createDirectory(at: socketFolder, withIntermediateDirectories: false)
            if tls { certificates = try Self.makeCertificates(in: folder.appendingPathComponent("tls")) }
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        caCertificate = certificates?.ca
        otherCACertificate = certificates?.otherCA
        do {
            let passwordFile = folder.appendingPathComponent("password")
            try Data(password.utf8).write(to: passwordFile)
            if let owner { try Self.chownTree(folder, to: owner) }
            try runAsOwner("initdb", [
                "-D", dataFolder.path, "-U", Self.user, "--pwfile=\(passwordFile.path)", "-E", "UTF8", "--locale=C",
                "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync",
            ])
            try? FileManager.default.removeItem(at: passwordFile)
            // fsync off for speed: a killed server (kill9) loses nothing, since every commit
            // still reaches the operating system before it is acknowledged; only a machine
            // crash would.
            var settings = """

                listen_addresses = 'localhost'
                port = \(port)
                unix_socket_directories = '\(socketFolder.path)'
                fsync = off
                full_page_writes = off
                max_connections = 60

                """
            if tls {
                let tlsFolder = folder.appendingPathComponent("tls").path
                settings += """
                    ssl = on
                    ssl_cert_file = '\(tlsFolder)/server.crt'
                    ssl_key_file = '\(tlsFolder)/server.key'

                    """
            }
            let configuration = try FileHandle(forWritingTo: dataFolder.appendingPathComponent("postgresql.conf"))
            defer { try? configuration.close() }
            try configuration.seekToEnd()
            try configuration.write(contentsOf: Data(settings.utf8))
            try start()
            try psql("CREATE DATABASE \(Self.database)", database: "postgres")
        } catch {
            remove()
            throw error
        }
    }

    /// A streaming-replication standby of `primary`: a copy of its data made with
    /// `pg_basebackup -R` (which configures the standby to follow it), started on a port and
    /// socket folder of its own. It is read-only (`pg_is_in_recovery()` true) until
    /// ``promote()``. With `synchronous`, the primary acknowledges a commit only once this
    /// standby has it on disk (`synchronous_standby_names`), so that no acknowledged write is
    /// lost when the primary dies; otherwise replication is asynchronous. Uses the primary's
    /// password and TLS certificate. Remove it with ``remove()`` (deferred) like any server.
    public func makeStandby(synchronous: Bool) throws -> PostgresTestServer {
        let standby = try PostgresTestServer(standbyOf: self)
        if synchronous {
            try psql("ALTER SYSTEM SET synchronous_standby_names = '\(standby.standbyName)'")
            try psql("SELECT pg_reload_conf()")
        }
        // Streaming before it is handed out: whatever the primary commits from now on reaches it.
        let deadline = Date().addingTimeInterval(60)
        while try psql("SELECT count(*) FROM pg_stat_replication WHERE application_name = '\(standby.standbyName)' AND state = 'streaming'"
                       + (synchronous ? " AND sync_state = 'sync'" : ""))
                .trimmingCharacters(in: .whitespacesAndNewlines) != "1" {
            guard Date() < deadline else {
                standby.remove()
                throw PostgresTestServerError.failed("the standby did not start streaming: \(standby.log)")
            }
            usleep(100_000)
        }
        return standby
    }

    /// The name the standby gives the primary (`cluster_name`, its replication application name).
    private var standbyName: String { "standby_\(port)" }

    private init(standbyOf primary: PostgresTestServer) throws {
        binaries = primary.binaries
        owner = primary.owner
        password = primary.password
        caCertificate = primary.caCertificate
        otherCACertificate = primary.otherCACertificate
        folder = try Self.makeFolder()
        dataFolder = folder.appendingPathComponent("data")
        socketFolder = folder.appendingPathComponent("socket")
        port = try Self.freeLoopbackPort()
        do {
            try FileManager.default.createDirectory(at: socketFolder, withIntermediateDirectories: false)
            if let owner { try Self.chownTree(folder, to: owner) }
            try runAsOwner("pg_basebackup", [
                "-h", primary.socketFolder.path, "-p", "\(primary.port)", "-U", Self.user, "-D", dataFolder.path,
                // A fast checkpoint: the default spreads it over minutes when pages are dirty.
                "-R", "-X", "stream", "--no-sync", "--checkpoint=fast",
            ])
            // Later settings win: the primary's port and socket folder are replaced by its own.
            let settings = """

                port = \(port)
                unix_socket_directories = '\(socketFolder.path)'
                cluster_name = '\(standbyName)'

                """
            let configuration = try FileHandle(forWritingTo: dataFolder.appendingPathComponent("postgresql.conf"))
            defer { try? configuration.close() }
            try configuration.seekToEnd()
            try configuration.write(contentsOf: Data(settings.utf8))
            try start()
        } catch {
            remove()
            throw error
        }
    }

    /// Whether the server is a standby in recovery (read-only).
    public var isStandby: Bool {
        get throws { try psql("SELECT pg_is_in_recovery()").trimmingCharacters(in: .whitespacesAndNewlines) == "t" }
    }

    /// Promotes a standby to primary (`pg_ctl promote`), waiting until it accepts writes.
    public func promote() throws {
        try runAsOwner("pg_ctl", ["-D", dataFolder.path, "-w", "-t", "60", "promote"])
    }

    private static func makeFolder() throws -> URL {
        var template = Array("/tmp/kcpg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw PostgresTestServerError.failed("mkdtemp: \(errno)") }
        return URL(fileURLWithPath: String(cString: made))
    }

    deinit { remove() }

    /// `postgres://sync_test:<password>@localhost:<port>/keychain?sslmode=<mode>` (and
    /// `sslrootcert` when given): the TCP address, with the password.
    public func tcpAddress(sslmode: String = "disable", rootCertificate: URL? = nil, host: String = "localhost") -> String {
        var address = "postgres://\(Self.user):\(password)@\(host):\(port)/\(Self.database)?sslmode=\(sslmode)"
        if let rootCertificate { address += "&sslrootcert=\(rootCertificate.path)" }
        return address
    }

    /// The Unix socket address, as libpq writes it: `postgres://sync_test@:<port>/keychain?host=<folder>`.
    public var socketAddress: String {
        "postgres://\(Self.user)@:\(port)/\(Self.database)?host=\(socketFolder.path)"
    }

    /// Starts the server and waits until it accepts connections.
    public func start() throws {
        try runAsOwner("pg_ctl", ["-D", dataFolder.path, "-l", folder.appendingPathComponent("log").path, "-w", "-t", "60", "start"])
    }

    /// Stops the server (fast shutdown: sessions are ended, connections cut).
    public func stop() throws {
        try runAsOwner("pg_ctl", ["-D", dataFolder.path, "-m", "fast", "-w", "-t", "60", "stop"])
    }

    /// Restarts the server: every connection is cut, then it accepts new ones.
    public func restart() throws {
        try runAsOwner("pg_ctl", [
            "-D", dataFolder.path, "-l", folder.appendingPathComponent("log").path, "-m", "fast", "-w", "-t", "60", "restart",
        ])
    }

    /// Kills the server with SIGKILL, as a crash would end it: the postmaster and every
    /// process it started (each in a session of its own, so no process group holds them all).
    /// Killing the postmaster alone would leave each backend serving its client until it noticed.
    public func kill9() throws {
        try signalServer(SIGKILL)
    }

    /// Freezes the server (SIGSTOP to every process of it): connections stay open and the
    /// kernel still accepts new ones, but nothing answers, as with a hung machine.
    public func pause() throws {
        try signalServer(SIGSTOP)
    }

    /// Lets a paused server run again.
    public func resume() throws {
        try signalServer(SIGCONT)
    }

    private func signalServer(_ signal: Int32) throws {
        let pidFile = try String(contentsOf: dataFolder.appendingPathComponent("postmaster.pid"), encoding: .utf8)
        guard let line = pidFile.split(separator: "\n").first, let pid = pid_t(line), pid > 1 else {
            throw PostgresTestServerError.failed("no postmaster pid")
        }
        // Stopped first, the postmaster starts no new process while its children are found.
        guard kill(pid, SIGSTOP) == 0 else { throw PostgresTestServerError.failed("kill: \(errno)") }
        for child in Self.children(of: pid) { kill(child, signal) }
        kill(pid, signal)
    }

    /// The processes whose parent is `parent`, from /proc.
    private static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            // /proc/<pid>/stat: "pid (name) state ppid ...": the name may hold spaces, not ")".
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent
        }
    }

    /// Runs SQL as the superuser over the Unix socket (tampering as the server's owner
    /// would), or as `user` (the socket trusts every role); returns psql's unaligned output.
    @discardableResult
    public func psql(_ sql: String, database: String = PostgresTestServer.database, user: String = PostgresTestServer.user) throws -> String {
        try runAsOwner("psql", [
            "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", socketFolder.path, "-p", "\(port)", "-U", user,
            "-d", database, "-c", sql,
        ])
    }

    /// The database as `pg_dump` writes it (plain SQL).
    public func dump() throws -> String {
        try runAsOwner("pg_dump", ["-h", socketFolder.path, "-p", "\(port)", "-U", Self.user, "-d", Self.database])
    }

    /// Replaces the database with `dump` (what ``dump()`` wrote), as restoring a backup does:
    /// every connection to it is cut, the database is dropped, made again and filled from the
    /// dump in one transaction, sequences included (they go back to where the dump found them).
    public func restore(_ dump: String) throws {
        let file = folder.appendingPathComponent("restore.sql")
        try Data(dump.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        if let owner, chown(file.path, owner.uid, owner.gid) != 0 { throw PostgresTestServerError.failed("chown: \(errno)") }
        try psql("DROP DATABASE \(Self.database) WITH (FORCE)", database: "postgres")
        try psql("CREATE DATABASE \(Self.database)", database: "postgres")
        try runAsOwner("psql", [
            "-X", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-h", socketFolder.path, "-p", "\(port)",
            "-U", Self.user, "-d", Self.database, "-f", file.path,
        ])
    }

    /// The server's log so far, to explain a failure.
    public var log: String {
        (try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? ""
    }

    /// Stops the server (immediately) and removes its folder. Idempotent.
    public func remove() {
        guard !isRemoved else { return }
        isRemoved = true
        if FileManager.default.fileExists(atPath: dataFolder.appendingPathComponent("postmaster.pid").path) {
            _ = try? runAsOwner("pg_ctl", ["-D", dataFolder.path, "-m", "immediate", "-w", "-t", "30", "stop"])
        }
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: - Running the server's programs

    /// Runs one of PostgreSQL's programs as the server's owner, in its folder; its output,
    /// or an error with its messages.
    @discardableResult
    private func runAsOwner(_ program: String, _ arguments: [String]) throws -> String {
        var command = [binaries.appendingPathComponent(program).path] + arguments
        // The server's programs refuse root and need a working folder they can enter.
        command = ["/usr/bin/env", "-C", folder.path] + command
        if let owner {
            command = ["/usr/bin/setpriv", "--reuid=\(owner.uid)", "--regid=\(owner.gid)", "--clear-groups", "--"] + command
        }
        let outputFolder = TestScratch.folder("postgres-output")
        try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outputFolder) }
        let result = try SpawnedProcess.runToEnd(
            command[0], Array(command.dropFirst()), environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C", "TZ": "UTC"],
            outputIn: outputFolder)
        guard result.status == 0 else {
            throw PostgresTestServerError.failed("\(program) exited with \(result.status): \(result.errors)\(result.output)")
        }
        return result.output
    }

    private static func findBinaries() -> URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap(Int.init).sorted().reversed()
            .map { root.appendingPathComponent("\($0)/bin") }
            .first { access($0.appendingPathComponent("initdb").path, X_OK) == 0 }
    }

    private static func unprivilegedUser() throws -> (uid: uid_t, gid: gid_t) {
        for name in ["postgres", "nobody"] {
            if let entry = getpwnam(name) { return (entry.pointee.pw_uid, entry.pointee.pw_gid) }
        }
        throw PostgresTestServerError.failed("no postgres or nobody user to run the server as")
    }

    private static func chownTree(_ folder: URL, to owner: (uid: uid_t, gid: gid_t)) throws {
        guard chown(folder.path, owner.uid, owner.gid) == 0 else { throw PostgresTestServerError.failed("chown: \(errno)") }
        let entries = FileManager.default.enumerator(atPath: folder.path)
        while let entry = entries?.nextObject() as? String {
            guard lchown(folder.appendingPathComponent(entry).path, owner.uid, owner.gid) == 0 else {
                throw PostgresTestServerError.failed("chown: \(errno)")
            }
        }
    }

    /// A port that was free on 127.0.0.1 a moment ago (the kernel's choice).
    private static func freeLoopbackPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw PostgresTestServerError.failed("socket: \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw PostgresTestServerError.failed("bind: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A CA, a server certificate it signed for localhost and 127.0.0.1, and another CA.
    private static func makeCertificates(in folder: URL) throws -> (ca: URL, otherCA: URL) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        func openssl(_ arguments: [String]) throws {
            let result = try SpawnedProcess.runToEnd(
                "/usr/bin/openssl", arguments, environment: ["PATH": "/usr/bin:/bin"], outputIn: folder)
            guard result.status == 0 else { throw PostgresTestServerError.failed("openssl \(arguments[0]): \(result.errors)") }
        }
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        for ca in ["ca", "other-ca"] {
            try openssl([
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-keyout", path("\(ca).key"), "-out", path("\(ca).crt"), "-subj", "/CN=Keychain sync test \(ca)",
            ])
        }
        try openssl([
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=localhost",
        ])
        try Data("subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n".utf8).write(to: folder.appendingPathComponent("server.ext"))
        try openssl([
            "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"), "-CAcreateserial",
            "-days", "2", "-extfile", path("server.ext"), "-out", path("server.crt"),
        ])
        // PostgreSQL refuses a key that others can read.
        guard chmod(path("server.key"), 0o600) == 0 else { throw PostgresTestServerError.failed("chmod: \(errno)") }
        return (folder.appendingPathComponent("ca.crt"), folder.appendingPathComponent("other-ca.crt"))
    }
}

public enum PostgresTestServerError: Error, CustomStringConvertible {
    case failed(String)

    public var description: String {
        switch self {
        case .failed(let reason): "PostgreSQL test server: \(reason)"
        }
    }
}
