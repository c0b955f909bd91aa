import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TPM 2.0 for the tests: `swtpm` (libtpms) serving TPM commands on a loopback port, with its
/// state in a scratch folder. Its TCTI (``tcti``) is what `KEYCHAIN_TPM_TCTI` takes. Stopping
/// and starting it again on the same state is a reboot of the same machine's TPM; a new state
/// folder is another machine's TPM.
public final class SoftwareTPM: @unchecked Sendable {
    // @unchecked: each test owns its TPM and calls it from one task.

    public static let executable = "/usr/bin/swtpm"

    /// The TPM's non-volatile state (its seeds): the TPM's identity.
    public let state: URL
    private var process: SpawnedProcess?
    /// The command port; the control port is the next one (swtpm's TCTI uses both).
    public private(set) var port: UInt16 = 0

    /// The tctildr configuration naming this TPM.
    public var tcti: String { "swtpm:host=127.0.0.1,port=\(port)" }

    public enum Failure: Error, CustomStringConvertible {
        case notInstalled
        case notStarted(String)

        public var description: String {
            switch self {
            case .notInstalled: "\(SoftwareTPM.executable) is not installed (Scripts/test installs swtpm)"
            case .notStarted(let why): "swtpm did not start: \(why)"
            }
        }
    }

    /// Starts a TPM on `state`, or on a new state (a new TPM) when nil.
    public init(state: URL? = nil) throws {
        self.state = state ?? TestScratch.folder("swtpm-state")
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else { throw Failure.notInstalled }
        try FileManager.default.createDirectory(at: self.state, withIntermediateDirectories: true)
        try start()
    }

    deinit { stop() }

    /// Starts swtpm on two free loopback ports. Ports are found free just before swtpm binds
    /// them, so another program may take one in between: then swtpm exits at once, and it is
    /// started again on other ports.
    public func start() throws {
        var lastFailure = "no attempt"
        for _ in 0..<8 {
            guard let port = Self.freePortPair() else { lastFailure = "no free loopback ports"; continue }
            let log = state.appendingPathComponent("swtpm.log").path
            let process = try SpawnedProcess(
                Self.executable,
                ["socket", "--tpm2", "--tpmstate", "dir=\(state.path)",
                 "--server", "type=tcp,port=\(port),bindaddr=127.0.0.1",
                 "--ctrl", "type=tcp,port=\(port + 1),bindaddr=127.0.0.1",
                 "--flags", "not-need-init,startup-clear"],
                environment: ProcessInfo.processInfo.environment,
                stdin: .open("/dev/null", O_RDONLY), stdout: .open(log, O_WRONLY | O_CREAT | O_APPEND),
                stderr: .open(log, O_WRONLY | O_CREAT | O_APPEND))
            if Self.waitUntilListening(port: port + 1, while: process) {
                self.process = process
                self.port = port
                return
            }
            process.kill()
            process.wait()
            lastFailure = (try? String(contentsOfFile: log, encoding: .utf8)) ?? "it exited"
        }
        throw Failure.notStarted(lastFailure)
    }

    /// Stops swtpm (SIGTERM: it saves its state and exits) and waits for it.
    public func stop() {
        guard let process else { return }
        process.kill(SIGTERM)
        process.wait()
        self.process = nil
    }

    /// A port whose successor is free too, both on 127.0.0.1.
    private static func freePortPair() -> UInt16? {
        for _ in 0..<20 {
            guard let port = boundPort(0), port < UInt16.max, boundPort(port + 1) != nil else { continue }
            return port
        }
        return nil
    }

    /// Binds a TCP socket to 127.0.0.1:`port` (0: any), closes it, and returns the port bound.
    private static func boundPort(_ port: UInt16) -> UInt16? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var address = loopback(port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return named == 0 ? UInt16(bigEndian: address.sin_port) : nil
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Waits until `port` accepts a connection, for at most 20 seconds (swtpm takes well under
    /// one); false when the process exits or the time runs out.
    private static func waitUntilListening(port: UInt16, while process: SpawnedProcess) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if process.poll() != nil { return false }
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { return false }
            var address = loopback(port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(socket)
            if connected == 0 { return true }
            usleep(20_000)
        }
        return false
    }
}
