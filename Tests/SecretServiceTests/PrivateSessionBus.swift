import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A session bus of the test's own (`dbus-daemon --session`) with the provider on it, over
/// an empty keychain folder: every test gets a user with nothing stored and no other
/// Secret Service. ``stop()`` ends both processes and removes the bus's folder.
final class PrivateSessionBus: @unchecked Sendable {
    /// The bus's address, for DBUS_SESSION_BUS_ADDRESS.
    let address: String
    /// The keychain folder's parent, for XDG_DATA_HOME.
    let dataHome: URL
    /// A short folder for the bus's socket: a Unix socket path holds at most 107 bytes.
    private let socketFolder: String
    private let daemon: SpawnedProcess
    private(set) var providers: [SpawnedProcess] = []

    /// A bus as `dbus-daemon --session` makes it, which admits only its own user; or, with
    /// `admittingEveryUser`, one that lets every user connect, as a misconfigured shared bus
    /// would, to show that the provider still serves only its own.
    ///
    /// With `servicesFolder`, the bus starts the services whose activation files are there
    /// (and only those) on their first call, with this user's keychain folder (XDG_DATA_HOME).
    init(admittingEveryUser: Bool = false, servicesFolder: URL? = nil) throws {
        let dataHome = TestScratch.folder("secret-service")
        self.dataHome = dataHome
        var template = Array("/tmp/kss-XXXXXX".utf8CString)
        guard let folder = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: \(errno)") }
        socketFolder = String(cString: folder)
        do {
            (daemon, address) = try Self.startDaemon(in: socketFolder, admittingEveryUser: admittingEveryUser,
                                                     servicesFolder: servicesFolder, dataHome: dataHome)
        } catch {
            try? FileManager.default.removeItem(atPath: socketFolder)
            throw error
        }
    }

    /// Starts dbus-daemon with its socket in `folder`; the process and the bus's address.
    private static func startDaemon(in folder: String, admittingEveryUser: Bool, servicesFolder: URL?,
                                    dataHome: URL) throws -> (SpawnedProcess, String) {
        // The session bus's own policy and message limits (/usr/share/dbus-1/session.conf),
        // without the system's service folders: with them, a
        // client's call could start another Secret Service (GNOME Keyring's activation file)
        // when ours is not there, and a test would pass against the wrong provider.
        var environment = ProcessInfo.processInfo.environment
        var extra = ""
        if let servicesFolder {
            extra += "  <servicedir>\(servicesFolder.path)</servicedir>\n"
            // What the bus starts inherits its environment: this user's keychain folder.
            environment = ProgramProcess.environment(dataHome: dataHome)
        }
        if admittingEveryUser {
            extra += "  <policy context=\"default\"><allow user=\"*\"/></policy>\n"
            // The other user must reach the socket inside the folder.
            chmod(folder, 0o711)
        }
        let file = folder + "/bus.conf"
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(folder)/bus</listen>
              <auth>EXTERNAL</auth>
              <limit name="max_incoming_bytes">1000000000</limit>
              <limit name="max_outgoing_bytes">1000000000</limit>
              <limit name="max_message_size">1000000000</limit>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            \(extra)</busconfig>
            """.write(toFile: file, atomically: false, encoding: .utf8)
        let configuration = ["--config-file=\(file)"]
        let daemon = try SpawnedProcess(
            "/usr/bin/dbus-daemon",
            configuration + ["--nofork", "--nopidfile", "--address=unix:path=\(folder)/bus", "--print-address=1"],
            environment: environment, stdin: .open("/dev/null", O_RDONLY), stdout: .pipe,
            stderr: .open("/dev/null", O_WRONLY))
        do {
            return (daemon, try firstLine(of: daemon, naming: "dbus-daemon"))
        } catch {
            daemon.kill()
            daemon.wait()
            throw error
        }
    }

    /// The environment of a program on this bus, for this user's keychains.
    var environment: [String: String] {
        ProgramProcess.environment(dataHome: dataHome, overrides: ["DBUS_SESSION_BUS_ADDRESS": address])
    }

    /// Starts keychain-secret-service and waits for its line saying that it owns the name;
    /// `overrides` change its environment (nil removes a variable), such as its PATH.
    @discardableResult
    func startProvider(environment overrides: [String: String?] = [:]) throws -> String {
        var environment = environment
        for (name, value) in overrides { environment[name] = value }
        let provider = try SpawnedProcess(
            ProgramProcess("keychain-secret-service").executable.path, [], environment: environment,
            stdin: .open("/dev/null", O_RDONLY), stdout: .pipe,
            stderr: .open(errorsFile(of: providers.count), O_WRONLY | O_CREAT | O_TRUNC))
        providers.append(provider)
        return try Self.firstLine(of: provider, naming: "keychain-secret-service")
    }

    /// Stops the providers running, waits until the bus has seen them go (the name has no
    /// owner), then starts another, as a new login or an activation after a crash does.
    @discardableResult
    func restartProvider(environment overrides: [String: String?] = [:]) throws -> String {
        for provider in providers where provider.poll() == nil {
            provider.kill(SIGTERM)
            provider.wait()
        }
        let deadline = Date().addingTimeInterval(60)
        while try run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus",
                                             "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                                             "string:org.freedesktop.secrets"]).output.contains("boolean true") {
            guard Date() < deadline else { throw TestFailure("org.freedesktop.secrets still owned after 60 seconds") }
            usleep(20_000)
        }
        return try startProvider(environment: overrides)
    }

    /// Where the standard error of the provider started `index`th goes.
    private func errorsFile(of index: Int) -> String { socketFolder + "/provider-\(index).err" }

    /// What the first provider wrote to standard error so far.
    func providerErrors() throws -> String {
        try String(contentsOfFile: errorsFile(of: 0), encoding: .utf8)
    }

    /// Runs `program` on this bus to its end.
    func run(_ program: String, _ arguments: [String], input: String = "") throws -> ProgramProcess.Outcome {
        try ProgramProcess(executable: URL(fileURLWithPath: program)).run(
            arguments, input: input, dataHome: dataHome, environment: ["DBUS_SESSION_BUS_ADDRESS": address])
    }

    func secretTool(_ arguments: String..., input: String = "") throws -> ProgramProcess.Outcome {
        try run("/usr/bin/secret-tool", arguments, input: input)
    }

    func keychainctl(_ arguments: String..., input: String = "") throws -> ProgramProcess.Outcome {
        try ProgramProcess("keychainctl").run(arguments, input: input, dataHome: dataHome)
    }

    /// `busctl --user call org.freedesktop.secrets path interface member signature arguments...`
    func call(_ path: String, _ interface: String, _ member: String, _ arguments: String...) throws -> ProgramProcess.Outcome {
        try call(path, interface, member, arguments)
    }

    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [String]) throws -> ProgramProcess.Outcome {
        try run("/usr/bin/busctl", ["--user", "call", "org.freedesktop.secrets", path, interface, member] + arguments)
    }

    /// Whether the first provider is still running.
    var providerIsRunning: Bool { providers.first.map { $0.poll() == nil } ?? false }

    /// Ends the bus alone, as the end of a login session does; the first provider's exit
    /// status once it ended, within 60 seconds (nil if it did not).
    func stopBusOnly() -> Int32? {
        daemon.kill(SIGTERM)
        daemon.wait()
        guard let provider = providers.first else { return nil }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let ended = provider.poll() { return ended.status }
            usleep(20_000)
        }
        return nil
    }

    /// Ends the providers and the bus, and waits for them.
    func stop() {
        for process in providers + [daemon] where process.poll() == nil {
            process.kill(SIGTERM)
            process.wait()
        }
        try? FileManager.default.removeItem(atPath: socketFolder)
    }

    /// The first line `process` writes to its standard output pipe, within 60 seconds;
    /// fails if the process ends first.
    private static func firstLine(of process: SpawnedProcess, naming name: String) throws -> String {
        guard let output = process.output else { throw TestFailure("\(name) has no output pipe") }
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(60)
        while !bytes.contains(UInt8(ascii: "\n")) {
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard remaining > 0 else { throw TestFailure("\(name) printed no line in 60 seconds") }
            guard poll(&descriptor, 1, remaining) >= 0 || errno == EINTR else { throw TestFailure("poll failed: \(errno)") }
            guard descriptor.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 512)
            let count = read(output, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw TestFailure("\(name) ended before its first line: status \(process.wait().status)")
            }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes.prefix(while: { $0 != UInt8(ascii: "\n") }), as: UTF8.self)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body` with a private bus and a provider on it, and stops both after it, whatever
/// it threw.
func withProvider(admittingEveryUser: Bool = false, _ body: (PrivateSessionBus) throws -> Void) throws {
    let bus = try PrivateSessionBus(admittingEveryUser: admittingEveryUser)
    defer { bus.stop() }
    try bus.startProvider()
    try body(bus)
}
