import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, for every test that runs a program.
///
/// Not Foundation's `Process`: on Linux its `run()` reads past a buffer while it lists
/// `/proc/self/fd`, and crashed the test process once in a few runs of this suite, which
/// starts hundreds of processes with many descriptors open (swift-corelibs-foundation
/// #5472, fixed after Swift 6.3.1). Its `waitUntilExit()` also polls every 50 ms.
public final class SpawnedProcess: @unchecked Sendable {
    /// Where one of the child's standard descriptors goes.
    public enum Stream: Sendable {
        /// This process's own.
        case inherit
        /// A file (or terminal, or /dev/null) opened with these flags.
        case open(String, Int32)
        /// A pipe whose other end this process holds (``output`` for standard output).
        case pipe
    }

    public let pid: pid_t
    /// The read end of standard output's pipe, when it is `.pipe`.
    public let output: Int32?
    private var termination: Termination?

    public struct Termination: Sendable, Equatable {
        /// The exit status, or 128 plus the signal that ended it, as a shell reports it.
        public let status: Int32
        public let signalled: Bool
    }

    /// Starts `executable` with `arguments` (without the program name) in `environment`.
    /// `newSession` starts it in a session of its own, so that the first terminal it opens
    /// becomes its controlling terminal.
    public init(_ executable: String, _ arguments: [String], environment: [String: String],
                stdin: Stream = .inherit, stdout: Stream = .inherit, stderr: Stream = .inherit,
                newSession: Bool = false) throws {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        // The child starts with every signal unblocked and at its default action, as a shell
        // starts a command: the mask and ignored signals are inherited across exec, and the
        // test runner's threads may block or ignore some.
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | (newSession ? Self.newSessionFlag : 0))
        var pipeEnds: [Int32] = []
        var readEnd: Int32?
        for (descriptor, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .inherit:
                break
            case .open(let path, let flags):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o600)
            case .pipe:
                var ends: [Int32] = [0, 0]
                // Close-on-exec from the start, so that no child another thread starts meanwhile
                // inherits them (its end would keep ours from ever reading the end of output);
                // dup2 in the child clears the flag on the copy it makes.
                guard Self.pipeClosingOnExec(&ends, O_CLOEXEC) == 0 else { throw SpawnError.notStarted(errno) }
                pipeEnds += ends
                // The child's end is the write end for output, the read end for input.
                let (childEnd, ownEnd) = descriptor == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                posix_spawn_file_actions_adddup2(&actions, childEnd, descriptor)
                if descriptor == 1 { readEnd = ownEnd }
            }
        }
        // Nothing else of this process goes to the child, as Foundation's Process ensures by
        // closing every other descriptor: a child holding the write end of a program file
        // that another test is copying would make that program fail to start (ETXTBSY).
        _ = Self.closeFrom(&actions, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        // ETXTBSY: a program a test just copied is still open for writing in a child that
        // another thread forked and has not yet closed its inherited descriptors in (between
        // fork and exec). That window ends by itself; the spawn is tried again, bounded.
        var spawned = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        for _ in 0..<100 where spawned == ETXTBSY {
            usleep(10_000)
            spawned = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        }
        // This process keeps only its own ends.
        for end in pipeEnds where end != readEnd { close(end) }
        guard spawned == 0 else {
            if let readEnd { close(readEnd) }
            throw SpawnError.notStarted(spawned)
        }
        pid = child
        output = readEnd
    }

    deinit {
        if let output { close(output) }
    }

    /// Waits for the child to end.
    @discardableResult
    public func wait() -> Termination {
        if let termination { return termination }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return ended(status)
    }

    /// How the child ended, or nil while it runs.
    public func poll() -> Termination? {
        if let termination { return termination }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return ended(status)
    }

    /// Sends `signal` (SIGKILL unless told otherwise).
    public func kill(_ signal: Int32 = SIGKILL) {
        _ = Glibc.kill(pid, signal)
    }

    /// Reads standard output's pipe to its end.
    public func readOutputToEnd() -> String {
        guard let output else { return "" }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(output, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// glibc's pipe2 and posix_spawn_file_actions_addclosefrom_np (2.34), which Swift does not
    /// import (`_GNU_SOURCE` only), looked up by name.
    private static let pipeClosingOnExec = glibcFunction(
        "pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    private static let closeFrom = glibcFunction(
        "posix_spawn_file_actions_addclosefrom_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)

    /// glibc's POSIX_SPAWN_SETSID, which Swift does not import (`__USE_GNU` only).
    private static let newSessionFlag: Int16 = 0x80

    private func ended(_ status: Int32) -> Termination {
        let signal = status & 0x7F
        let result = Termination(status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal, signalled: signal != 0)
        termination = result
        return result
    }
}

public enum SpawnError: Error, CustomStringConvertible {
    case notStarted(Int32)

    public var description: String {
        switch self {
        case .notStarted(let error): "posix_spawn failed: \(String(cString: strerror(error)))"
        }
    }
}

/// A glibc function that Swift's Glibc module does not import (it needs a feature macro such
/// as `_GNU_SOURCE` or `_XOPEN_SOURCE`), looked up by name.
func glibcFunction<F>(_ symbol: String, as type: F.Type) -> F {
    guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) else { fatalError("glibc has no \(symbol)") }
    return unsafeBitCast(address, to: type)
}

extension SpawnedProcess {
    /// Runs a program to its end with standard input /dev/null and its output and errors in
    /// files of `folder`, then reads them: for programs whose output is too large for a pipe
    /// or whose descriptors the test arranges itself.
    public static func runToEnd(_ executable: String, _ arguments: [String], environment: [String: String],
                                outputIn folder: URL) throws -> (status: Int32, output: String, errors: String) {
        let files = ["out", "err"].map { folder.appendingPathComponent("\(UUID().uuidString)-\($0)") }
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        let process = try SpawnedProcess(
            executable, arguments, environment: environment,
            stdin: .open("/dev/null", O_RDONLY),
            stdout: .open(files[0].path, O_WRONLY | O_CREAT | O_TRUNC),
            stderr: .open(files[1].path, O_WRONLY | O_CREAT | O_TRUNC))
        let termination = process.wait()
        return (termination.status, try String(contentsOf: files[0], encoding: .utf8),
                try String(contentsOf: files[1], encoding: .utf8))
    }
}
