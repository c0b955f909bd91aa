import Foundation
import KeychainCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A program that asks the user for a password (pinentry, systemd-ask-password), run
/// without a shell: the provider writes to its standard input (when it talks, as pinentry
/// does) and reads its standard output line by line; its standard error goes nowhere.
///
/// ``stop()`` may be called from any thread (a Dismiss on the bus thread) while another reads.
final class PromptProgram: Sendable {
    /// The longest line read: Assuan lines are at most 1000 bytes, and no password is longer.
    static let lineLimit = 4096

    let path: String
    private let pid: pid_t
    /// Our ends of its standard input (-1 when it reads /dev/null) and output.
    private let input: Int32
    private let output: Int32
    /// Whether the process was reaped: after that its id may name another process, which
    /// ``stop()`` must not signal.
    private let reaped = Mutex(false)
    /// What was read past the last line returned; zeroed as it is consumed.
    private let pending = Mutex<[UInt8]>([])

    private init(path: String, pid: pid_t, input: Int32, output: Int32) {
        self.path = path
        self.pid = pid
        self.input = input
        self.output = output
    }

    /// Starts `path` with `arguments`; `talks` gives it a pipe as standard input.
    static func start(_ path: String, _ arguments: [String], talks: Bool) throws(PromptFailure) -> PromptProgram {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard ChildProgram.makePipe(&fromChild) == 0 else { throw .failed("no pipe for \(path): \(lastError())") }
        if talks, ChildProgram.makePipe(&toChild) != 0 {
            let message = lastError()
            fromChild.forEach { close($0) }
            throw .failed("no pipe for \(path): \(message)")
        }
        let started = Result { () throws(ChildProgram.StartFailure) in
            try ChildProgram.start(path, arguments, input: talks ? toChild[0] : nil, output: fromChild[1], discardErrors: true)
        }
        close(fromChild[1])
        if talks { close(toChild[0]) }
        let pid: pid_t
        switch started {
        case .success(let child): pid = child
        case .failure(let failure):
            close(fromChild[0])
            if talks { close(toChild[1]) }
            throw .failed("\(path) cannot be run: \(failure.reason)")
        }
        return PromptProgram(path: path, pid: pid, input: talks ? toChild[1] : -1, output: fromChild[0])
    }

    /// Writes `line` and a newline to its standard input; false when it closed it.
    func send(_ line: [UInt8]) -> Bool {
        guard input >= 0 else { return false }
        var bytes = line + [UInt8(ascii: "\n")]
        defer { bytes.zeroBytes() }
        if case .failure = SystemCall.writeAll(input, bytes) { return false }
        return true
    }

    /// The next line of its output without the newline, or nil at its end, on a read error or
    /// past ``lineLimit``. The caller zeroes a line that may hold a password.
    func receiveLine() -> [UInt8]? {
        pending.withLock { buffer -> [UInt8]? in
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(buffer[..<newline])
                    let rest = Array(buffer[(newline + 1)...])
                    buffer.zeroBytes()
                    buffer = rest
                    return line
                }
                guard buffer.count <= Self.lineLimit else { return nil }
                var chunk = [UInt8](repeating: 0, count: 512)
                defer { chunk.zeroBytes() }
                let read = chunk.withUnsafeMutableBytes { SystemCall.read(output, into: $0) }
                guard case .success(let count) = read, count > 0 else { return nil }
                buffer += chunk[..<count]
            }
        }
    }

    /// Asks it to end (SIGTERM), unless it already ended and was reaped.
    func stop() {
        reaped.withLock { reaped in
            if !reaped { kill(pid, SIGTERM) }
        }
    }

    /// Closes our ends and waits for it; whether it exited with status 0.
    @discardableResult
    func finish() -> Bool {
        if input >= 0 { close(input) }
        close(output)
        pending.withLock { $0.zeroBytes() }
        // Wait without reaping first, so that stop() never signals a reused process id.
        var information = siginfo_t()
        while waitid(P_PID, id_t(pid), &information, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        var status: Int32 = 0
        reaped.withLock { reaped in
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            reaped = true
        }
        return status & 0x7F == 0 && (status >> 8) & 0xFF == 0
    }

    /// The program named `name` in the directories of `PATH`, as a shell would find it.
    static func find(_ name: String) -> String? {
        let search = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in search.split(separator: ":", omittingEmptySubsequences: true) where folder.hasPrefix("/") {
            let candidate = "\(folder)/\(name)"
            var information = stat()
            guard stat(candidate, &information) == 0, information.st_mode & S_IFMT == S_IFREG,
                  access(candidate, X_OK) == 0 else { continue }
            return candidate
        }
        return nil
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
