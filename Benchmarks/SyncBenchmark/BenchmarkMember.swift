import Foundation
import GRDB
import KeychainCore
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// One machine of the benchmark's sync group, played by folders of its own: its keychains
/// (`XDG_DATA_HOME`), its machine secret (`XDG_STATE_HOME`) and its config (`XDG_CONFIG_HOME`),
/// used by every keychainctl process it runs, its agent (`keychainctl sync run`) among them.
/// The benchmark itself reads and writes the member's keychain through the core, as a
/// program of that machine would, on the same files.
final class BenchmarkMember {
    let name: String
    let home: URL
    let keychainctl: String
    private(set) var agent: SpawnedProcess?
    private var opened: KeychainStore?
    private var counter: DatabaseQueue?

    /// The access group of the items the benchmark writes.
    static let caller = CallerIdentity(accessGroups: ["com.example.sync-benchmark"])

    init(_ name: String, in root: URL, keychainctl: String) throws {
        self.name = name
        home = root.appendingPathComponent(name)
        self.keychainctl = keychainctl
        for folder in ["", "data", "state", "config", "io"] {
            try FileManager.default.createDirectory(at: home.appendingPathComponent(folder), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    deinit { stopAgent() }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KEYCHAIN") }
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["HOME"] = home.path
        environment["KEYCHAINCTL_LOG_LEVEL"] = "info"
        return environment
    }

    /// Runs `keychainctl arguments...` to its end; its output, or an error with its messages.
    @discardableResult
    func run(_ arguments: String...) throws -> String {
        let result = try SpawnedProcess.runToEnd(keychainctl, arguments, environment: environment,
                                                 outputIn: home.appendingPathComponent("io"))
        guard result.status == 0 else {
            throw BenchmarkFailure("keychainctl \(arguments.prefix(2).joined(separator: " ")) on \(name) exited with \(result.status): \(result.errors)")
        }
        return result.output
    }

    /// Starts `keychainctl arguments...` in the background, its output and errors in `log`.
    func start(_ arguments: [String], log: URL) throws -> SpawnedProcess {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        return try SpawnedProcess(keychainctl, arguments, environment: environment,
                                  stdin: .open("/dev/null", O_RDONLY),
                                  stdout: .open(log.path, O_WRONLY | O_APPEND),
                                  stderr: .open(log.path, O_WRONLY | O_APPEND))
    }

    var agentLog: URL { home.appendingPathComponent("agent.log") }

    /// Starts the agent as a user runs it (`keychainctl sync run`, its default interval).
    func startAgent() throws {
        guard agent == nil else { throw BenchmarkFailure("the agent of \(name) runs already") }
        agent = try start(["sync", "run"], log: agentLog)
    }

    /// Stops the agent as systemd would (SIGTERM).
    func stopAgent() {
        agent?.kill(SIGTERM)
        _ = agent?.wait()
        agent = nil
    }

    /// The agent's resident memory (VmRSS of /proc/<pid>/status), in KiB.
    func agentResidentKiB() throws -> Int {
        guard let agent else { throw BenchmarkFailure("the agent of \(name) is not running") }
        let status = try String(contentsOfFile: "/proc/\(agent.pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
            throw BenchmarkFailure("no VmRSS for the agent of \(name)")
        }
        return kib
    }

    /// The end of the agent's log, to explain a failure.
    var agentLogTail: String {
        "\(name)'s agent log: " + String(((try? String(contentsOf: agentLog, encoding: .utf8)) ?? "").suffix(1500))
    }

    /// Fails when the agent has exited, with its log.
    func checkAgentRuns() throws {
        if let ended = agent?.poll() {
            let log = (try? String(contentsOf: agentLog, encoding: .utf8)) ?? ""
            throw BenchmarkFailure("the agent of \(name) exited with \(ended.status): \(log.suffix(2000))")
        }
    }

    /// The folder of the member's keychains.
    var keychainFolder: URL { home.appendingPathComponent("data/keychains") }

    /// The member's keychain (the one keychainctl made), opened through the core with the
    /// member's machine secret.
    func store() throws -> KeychainStore {
        if let opened { return opened }
        let store = try KeychainStore.shared(files(), create: false)
        opened = store
        return store
    }

    private func files() throws -> KeychainFiles {
        let databases = try FileManager.default.contentsOfDirectory(atPath: keychainFolder.path)
            .filter { $0.hasSuffix(".keychain-db") }
        guard databases.count == 1, let database = databases.first else {
            throw BenchmarkFailure("\(name) has \(databases.count) keychains, not one")
        }
        return KeychainFiles(directory: keychainFolder, name: String(database.dropLast(".keychain-db".count)),
                             machineSecret: home.appendingPathComponent("state/swift-keychain/machine-secret"))
    }

    /// The number of rows of the keychain (items, the sync configuration among them), read
    /// with SQLite's `count(*)`: cheap enough to poll while 100,000 items arrive.
    func rowCount() throws -> Int {
        if counter == nil {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            counter = try DatabaseQueue(path: try files().database.path, configuration: configuration)
        }
        return try counter?.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } ?? 0
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
