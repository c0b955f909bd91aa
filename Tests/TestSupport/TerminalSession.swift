import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program run on a pseudo-terminal that is its controlling terminal, as when a user
/// types at it in a shell: what it shows on the terminal (prompts, and any echo of what is
/// typed) is read here, and answers are typed in. Standard output and standard error go to
/// files, so that a test tells the terminal's prompts from the program's output.
///
/// The program starts in a session of its own, so `/dev/tty` is this terminal and never the
/// terminal of whoever runs the tests.
public final class TerminalSession {
    public struct Outcome: Sendable {
        public let status: Int32
        /// Everything the program wrote to the terminal, with the terminal's `\r\n`.
        public let terminal: String
        public let output: String
        public let errors: String
    }

    private let master: Int32
    private let pid: pid_t
    private let files: [URL]
    private var shown: [UInt8] = []
    /// Where the last wait's match ended.
    private var matched = 0

    /// Starts `program` with `arguments` on a new terminal, in `environment`.
    public init(_ program: ProgramProcess, _ arguments: [String], environment: [String: String]) throws {
        let scratch = TestScratch.folder("terminal-io")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        files = [scratch.appendingPathComponent("out"), scratch.appendingPathComponent("err")]

        master = PseudoTerminal.openMaster(O_RDWR | O_NOCTTY | O_CLOEXEC)
        var name = [CChar](repeating: 0, count: 128)
        guard master >= 0, PseudoTerminal.grant(master) == 0, PseudoTerminal.unlock(master) == 0,
              PseudoTerminal.name(master, &name, name.count) == 0
        else { throw TerminalError.noTerminal(errno) }
        let terminalPath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)

        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        // A new session first; opening the terminal then makes it the controlling one.
        posix_spawnattr_setflags(&attributes, PseudoTerminal.spawnNewSession)
        posix_spawn_file_actions_addopen(&actions, 0, terminalPath, O_RDWR, 0)
        posix_spawn_file_actions_addopen(&actions, 1, files[0].path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, files[1].path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([program.executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, program.executable.path, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw TerminalError.notStarted(spawned) }
        pid = child
    }

    deinit {
        close(master)
    }

    /// Waits until the terminal shows `text` after what earlier waits matched, as `expect`
    /// does; everything it has shown so far.
    @discardableResult
    public func waitFor(_ text: String, timeout: TimeInterval = 30) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        let wanted = Array(text.utf8)
        while true {
            if let start = shown[matched...].firstRange(of: wanted) {
                matched = start.upperBound
                return terminal
            }
            guard readTerminal(until: deadline) else { throw TerminalError.timedOut(waitingFor: text, shown: terminal) }
        }
    }

    /// Types a line, as a user would, with Enter.
    public func type(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits for the program to end and reads what it left.
    public func finish(timeout: TimeInterval = 30) throws -> Outcome {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Date() < deadline else {
                kill(pid, SIGKILL)
                throw TerminalError.timedOut(waitingFor: "the program's end", shown: terminal)
            }
            _ = readTerminal(until: Date().addingTimeInterval(0.05))
        }
        while readTerminal(until: Date()) {}
        // The exit status in the `status` word, when the program exited rather than died.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Outcome(status: exitStatus, terminal: terminal,
                       output: try String(contentsOf: files[0], encoding: .utf8),
                       errors: try String(contentsOf: files[1], encoding: .utf8))
    }

    private var terminal: String { String(decoding: shown, as: UTF8.self) }

    /// Reads what the terminal shows, waiting up to `deadline`; false when nothing came.
    private func readTerminal(until deadline: Date) -> Bool {
        var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
        guard poll(&poller, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(master, &buffer, buffer.count)
        // EIO: the program closed the terminal's last descriptor.
        guard count > 0 else { return false }
        shown += buffer[..<count]
        return true
    }
}

/// The pseudo-terminal calls of glibc that its Swift module does not import (they need
/// `_XOPEN_SOURCE`), looked up by name.
private enum PseudoTerminal {
    typealias Open = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32

    static let openMaster = function("posix_openpt", as: Open.self)
    static let grant = function("grantpt", as: Open.self)
    static let unlock = function("unlockpt", as: Open.self)
    static let name = function("ptsname_r", as: Name.self)

    /// glibc's POSIX_SPAWN_SETSID (`__USE_GNU` only): the child starts a new session.
    static let spawnNewSession: Int16 = 0x80

    private static func function<F>(_ symbol: String, as type: F.Type) -> F {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) else {
            fatalError("glibc has no \(symbol)")
        }
        return unsafeBitCast(address, to: type)
    }
}

public enum TerminalError: Error, CustomStringConvertible {
    case noTerminal(Int32)
    case notStarted(Int32)
    case timedOut(waitingFor: String, shown: String)

    public var description: String {
        switch self {
        case .noTerminal(let error): "no pseudo-terminal: errno \(error)"
        case .notStarted(let error): "posix_spawn failed: \(error)"
        case .timedOut(let text, let shown): "timed out waiting for \(text.debugDescription); the terminal showed \(shown.debugDescription)"
        }
    }
}
