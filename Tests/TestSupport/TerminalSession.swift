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
    private let process: SpawnedProcess
    private let files: [URL]
    private var shown: [UInt8] = []
    /// Where the last wait's match ended.
    private var matched = 0

    /// Starts `program` with `arguments` on a new terminal, in `environment`.
    public convenience init(_ program: ProgramProcess, _ arguments: [String], environment: [String: String]) throws {
        try self.init(executable: program.executable.path, arguments, environment: environment)
    }

    /// Starts the program at `executable` (a shell, say, that runs one of this package's
    /// programs as a job) with `arguments` on a new terminal, in `environment`.
    public init(executable: String, _ arguments: [String], environment: [String: String]) throws {
        let scratch = TestScratch.folder("terminal-io")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        files = [scratch.appendingPathComponent("out"), scratch.appendingPathComponent("err")]

        master = PseudoTerminal.openMaster(O_RDWR | O_NOCTTY | O_CLOEXEC)
        var name = [CChar](repeating: 0, count: 128)
        guard master >= 0, PseudoTerminal.grant(master) == 0, PseudoTerminal.unlock(master) == 0,
              PseudoTerminal.name(master, &name, name.count) == 0
        else { throw TerminalError.noTerminal(errno) }
        let terminalPath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)

        // A new session first; opening the terminal then makes it the controlling one.
        process = try SpawnedProcess(
            executable, arguments, environment: environment,
            stdin: .open(terminalPath, O_RDWR),
            stdout: .open(files[0].path, O_WRONLY | O_CREAT | O_TRUNC),
            stderr: .open(files[1].path, O_WRONLY | O_CREAT | O_TRUNC),
            newSession: true)
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

    /// Types keys without Enter: "\u{1A}" is Ctrl-Z, which the terminal turns into SIGTSTP
    /// for the program in the foreground.
    public func press(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Sends `signal` to the program, as `kill` would.
    public func send(_ signal: Int32) {
        process.kill(signal)
    }

    /// Turns the terminal's echo on or off, as a shell does when it takes the terminal back or
    /// gives it to a job it continues.
    public func setEcho(_ on: Bool) {
        var settings = termios()
        guard tcgetattr(master, &settings) == 0 else { return }
        if on { settings.c_lflag |= tcflag_t(ECHO) } else { settings.c_lflag &= ~tcflag_t(ECHO) }
        tcsetattr(master, TCSANOW, &settings)
    }

    /// Whether the terminal echoes what is typed now (its ECHO flag): a program must leave it
    /// as it found it. Linux keeps one set of settings for both ends of a pseudo-terminal,
    /// and they outlive the program.
    public var echoes: Bool {
        var settings = termios()
        return tcgetattr(master, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Waits for the program to end and reads what it left.
    public func finish(timeout: TimeInterval = 30) throws -> Outcome {
        let deadline = Date().addingTimeInterval(timeout)
        var termination = process.poll()
        while termination == nil {
            guard Date() < deadline else {
                process.kill()
                throw TerminalError.timedOut(waitingFor: "the program's end", shown: terminal)
            }
            _ = readTerminal(until: Date().addingTimeInterval(0.05))
            termination = process.poll()
        }
        while readTerminal(until: Date()) {}
        let exitStatus = termination?.status ?? -1
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
/// `_XOPEN_SOURCE`).
private enum PseudoTerminal {
    typealias Open = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32

    static let openMaster = glibcFunction("posix_openpt", as: Open.self)
    static let grant = glibcFunction("grantpt", as: Open.self)
    static let unlock = glibcFunction("unlockpt", as: Open.self)
    static let name = glibcFunction("ptsname_r", as: Name.self)
}

public enum TerminalError: Error, CustomStringConvertible {
    case noTerminal(Int32)
    case timedOut(waitingFor: String, shown: String)

    public var description: String {
        switch self {
        case .noTerminal(let error): "no pseudo-terminal: errno \(error)"
        case .timedOut(let text, let shown): "timed out waiting for \(text.debugDescription); the terminal showed \(shown.debugDescription)"
        }
    }
}
