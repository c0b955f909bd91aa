import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// One machine of a sync group, played by folders of its own: its keychains
/// (`XDG_DATA_HOME`), its machine secret (`XDG_STATE_HOME`) and its config (`XDG_CONFIG_HOME`),
/// used by every keychainctl process it runs, among them its agent (`keychainctl sync run`).
final class SyncMember: @unchecked Sendable {
    let name: String
    let home = TestScratch.folder("sync-member")
    let program = ProgramProcess("keychainctl")
    private(set) var agent: SpawnedProcess?
    private var agentLog: URL { home.appendingPathComponent("agent-\(agentRuns).log") }
    private var agentRuns = 0

    init(_ name: String) throws {
        self.name = name
        for folder in ["data", "state", "config", "io"] {
            try FileManager.default.createDirectory(at: home.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
    }

    deinit {
        agent?.kill()
        _ = agent?.wait()
    }

    var environment: [String: String] {
        ProgramProcess.environment(dataHome: home.appendingPathComponent("data"), overrides: [
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "HOME": home.path,
            "KEYCHAINCTL_LOG_LEVEL": "info",
        ])
    }

    /// The keychain's database, to scan its files.
    var keychainFolder: URL { home.appendingPathComponent("data/keychains") }

    /// Runs `keychainctl arguments...` to its end.
    @discardableResult
    func run(_ arguments: String...) throws -> (status: Int32, output: String, errors: String) {
        try run(arguments)
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        try SpawnedProcess.runToEnd(program.executable.path, arguments, environment: environment,
                                    outputIn: home.appendingPathComponent("io"))
    }

    /// Starts `keychainctl arguments...` in the background, its output and errors in `log`.
    func start(_ arguments: [String], log: URL) throws -> SpawnedProcess {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        return try SpawnedProcess(program.executable.path, arguments, environment: environment,
                                  stdin: .open("/dev/null", O_RDONLY),
                                  stdout: .open(log.path, O_WRONLY | O_APPEND),
                                  stderr: .open(log.path, O_WRONLY | O_APPEND))
    }

    /// Runs `script` with /bin/sh, in which `$0` is keychainctl, with `variables` added to the
    /// member's environment: a README line as a user types it.
    func shell(_ script: String, variables: [String: String] = [:]) throws -> (status: Int32, output: String, errors: String) {
        try SpawnedProcess.runToEnd("/bin/sh", ["-c", script, program.executable.path],
                                    environment: environment.merging(variables) { $1 }, outputIn: home.appendingPathComponent("io"))
    }

    /// Starts `script` as ``shell(_:variables:)`` does, in the background, its output in `log`.
    func startShell(_ script: String, variables: [String: String] = [:], log: URL) throws -> SpawnedProcess {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        return try SpawnedProcess("/bin/sh", ["-c", "exec " + script, program.executable.path],
                                  environment: environment.merging(variables) { $1 },
                                  stdin: .open("/dev/null", O_RDONLY),
                                  stdout: .open(log.path, O_WRONLY | O_APPEND),
                                  stderr: .open(log.path, O_WRONLY | O_APPEND))
    }

    /// Starts this member's agent, passing at least every second when nothing wakes it.
    func startAgent() throws {
        precondition(agent == nil, "the agent runs already")
        agentRuns += 1
        agent = try start(["sync", "run", "--interval", "1"], log: agentLog)
    }

    /// Kills the agent with SIGKILL, at whatever it is doing.
    func killAgent() {
        agent?.kill(SIGKILL)
        _ = agent?.wait()
        agent = nil
    }

    /// Stops the agent as systemd would (SIGTERM); its exit status.
    @discardableResult
    func stopAgent() -> Int32? {
        defer { agent = nil }
        agent?.kill(SIGTERM)
        return agent?.wait().status
    }

    /// What every run of the agent logged.
    var agentLogs: String {
        (1...max(agentRuns, 1)).compactMap {
            try? String(contentsOf: home.appendingPathComponent("agent-\($0).log"), encoding: .utf8)
        }.joined()
    }

    /// The password of the generic password `service`/`account`, or nil when there is none.
    func password(service: String, account: String) throws -> String? {
        let result = try run("find-generic-password", "-s", service, "-a", account, "-w")
        if result.status == 44 { return nil }
        guard result.status == 0 else { throw SyncTestFailure("find-generic-password on \(name): \(result.errors)") }
        return String(result.output.dropLast(result.output.hasSuffix("\n") ? 1 : 0))
    }

    /// Adds (or with `update`, changes) a synchronizable generic password.
    func store(service: String, account: String, password: String, update: Bool = false) throws {
        var arguments = ["add-generic-password", "--synchronizable", "-s", service, "-a", account, "-w", password]
        if update { arguments.insert("-U", at: 1) }
        let result = try run(arguments)
        guard result.status == 0 else { throw SyncTestFailure("add-generic-password on \(name): \(result.errors)") }
    }

    /// Runs `sql` on the agent's state file with sqlite3 (another implementation than the agent's).
    func editSyncState(_ sql: String) throws {
        let state = keychainFolder.appendingPathComponent("login.keychain-sync").path
        let edited = try SpawnedProcess.runToEnd("/usr/bin/sqlite3", [state, sql],
                                                 environment: environment, outputIn: home.appendingPathComponent("io"))
        guard edited.status == 0 else { throw SyncTestFailure("sqlite3: \(edited.errors)") }
    }

    /// Copies the agent's state file to `copy` (sqlite3's `.backup`), or with `restoring`, puts
    /// `copy` back in its place (`.restore`): an agent killed before it recorded a pass.
    func copySyncState(_ copy: URL, restoring: Bool = false) throws {
        let state = keychainFolder.appendingPathComponent("login.keychain-sync").path
        let copied = try SpawnedProcess.runToEnd("/usr/bin/sqlite3", [state, "\(restoring ? ".restore" : ".backup") '\(copy.path)'"],
                                                 environment: environment, outputIn: home.appendingPathComponent("io"))
        guard copied.status == 0 else { throw SyncTestFailure("sqlite3: \(copied.errors)") }
    }

    /// Moves a time in the agent's state file back, as if that much time had passed (sqlite3,
    /// another implementation than the agent's).
    func ageSyncState(key: String, byMilliseconds milliseconds: Int64) throws {
        let state = keychainFolder.appendingPathComponent("login.keychain-sync").path
        let aged = try SpawnedProcess.runToEnd("/usr/bin/sqlite3", [state,
            "UPDATE progress SET value = value - \(milliseconds) WHERE key = '\(key)'"],
            environment: environment, outputIn: home.appendingPathComponent("io"))
        guard aged.status == 0 else { throw SyncTestFailure("sqlite3: \(aged.errors)") }
    }

    /// How many local changes wait to be sent, as `sync status` reports it.
    func pendingLocalChanges() throws -> Int {
        let status = try run("sync", "status", "--offline")
        let prefix = "local changes not sent yet: "
        guard let line = status.output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
              let count = Int(line.dropFirst(prefix.count)) else {
            throw SyncTestFailure("sync status on \(name): \(status.output)\(status.errors)")
        }
        return count
    }

    /// Deletes the generic password `service`/`account`; whether there was one to delete.
    @discardableResult
    func delete(service: String, account: String) throws -> Bool {
        let result = try run("delete-generic-password", "-s", service, "-a", account)
        guard result.status == 0 || result.status == 44 else { throw SyncTestFailure("delete-generic-password on \(name): \(result.errors)") }
        return result.status == 0
    }
}

struct SyncTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One `sync run --once` of each member, in order, each required to succeed.
func syncOnce(_ members: SyncMember...) throws {
    for member in members {
        let result = try member.run("sync", "run", "--once")
        guard result.status == 0 else { throw SyncTestFailure("sync run --once on \(member.name): \(result.errors)") }
    }
}

/// Waits until `condition` holds, checking every 100 ms, for at most `seconds`: what a user
/// waits for when an item travels. The deadline is generous; a pass ends as soon as it holds.
func eventually(_ seconds: Double = 30, _ what: String, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        if try condition() { return }
        guard Date() < deadline else { throw SyncTestFailure("not within \(Int(seconds)) s: \(what)") }
        usleep(100_000)
    }
}

/// Sets up a group on `server` with `founder` and admits each of `others` through join and
/// approve, as a user does.
func formGroup(server url: String, founder: SyncMember, others: [SyncMember]) throws {
    let setup = try founder.run("sync", "setup", "--server", url, "--name", founder.name)
    guard setup.status == 0 else { throw SyncTestFailure("sync setup: \(setup.errors)") }
    for member in others { try admit(member, server: url, approver: founder) }
}

/// `member` asks to join the group on `server` and `approver`, a member, approves it.
func admit(_ member: SyncMember, server url: String, approver founder: SyncMember) throws {
    let log = member.home.appendingPathComponent("join.log")
    let join = try member.start(["sync", "join", "--server", url, "--name", member.name, "--timeout", "60"], log: log)
    var code: String?
    try eventually(30, "sync join prints a code") {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        if join.poll() != nil { throw SyncTestFailure("sync join ended early: \(text)") }
        code = text.split(separator: "\n").first { $0.contains("sync approve ") }
            .flatMap { $0.split(separator: " ").last.map(String.init) }
        return code != nil
    }
    let approve = try founder.run("sync", "approve", code ?? "")
    guard approve.status == 0 else { throw SyncTestFailure("sync approve: \(approve.errors)") }
    let ended = join.wait()
    guard ended.status == 0 else {
        throw SyncTestFailure("sync join: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }
}

extension PostgresTestServer {
    /// Starts the server after ``kill9()``: its backends end once they notice the postmaster is
    /// gone, until then a start finds their shared memory in use and fails; it is tried again.
    func startAfterCrash() throws {
        var failure: Error?
        for _ in 0..<50 {
            do {
                try start()
                return
            } catch {
                failure = error
                usleep(200_000)
            }
        }
        throw failure ?? SyncTestFailure("the server did not start again")
    }

    /// Whether any file of the data folder (tables, indexes, write-ahead log) holds `marker`.
    func dataFolderContains(_ marker: Data) throws -> Bool {
        guard let files = FileManager.default.enumerator(at: dataFolder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw SyncTestFailure("cannot list \(dataFolder.path)")
        }
        for case let file as URL in files {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            guard let contents = try? Data(contentsOf: file) else { continue }
            if contents.range(of: marker) != nil { return true }
        }
        return false
    }
}
