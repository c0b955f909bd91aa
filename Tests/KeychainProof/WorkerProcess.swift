import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A worker process of a proof suite: the tests' KeychainTestHelper or the long runs' own
/// executable, started with a keychain chosen through the environment, as any program's.
public struct WorkerProcess {
    public let process: SpawnedProcess
    private var buffered: [UInt8] = []

    /// Starts `executable arguments` with `XDG_DATA_HOME` and `KEYCHAIN_ACCESS_GROUPS` set,
    /// and the variables of `environment` (nil removes one).
    ///
    /// - Parameter errorLog: a file the worker's standard error (the library's log) is
    ///   appended to. Without one it is dropped: what the library logs about damage it meets
    ///   is expected in most runs, and would drown the report; the checks read the worker's
    ///   statuses instead.
    public init(_ executable: URL, _ arguments: [String], dataHome: URL, accessGroups: String,
                environment more: [String: String?] = [:], errorLog: URL? = nil) throws {
        let overrides = more.merging(["KEYCHAIN_ACCESS_GROUPS": accessGroups]) { $1 }
        let environment = ProgramProcess.environment(dataHome: dataHome, overrides: overrides)
        let standardError: SpawnedProcess.Stream = if let errorLog {
            .open(errorLog.path, O_WRONLY | O_CREAT | O_APPEND)
        } else {
            .open("/dev/null", O_WRONLY)
        }
        process = try SpawnedProcess(executable.path, arguments, environment: environment,
                                     stdout: .pipe, stderr: standardError)
    }

    /// The next line the worker printed, or nil at the end of its output.
    public mutating func readLine() -> String? {
        guard let descriptor = process.output else { return nil }
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeFirst(newline + 1)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            buffered += chunk[..<count]
        }
    }

    /// Reads to the end of the output and waits for the exit; the lines printed.
    public mutating func finish() -> [String] {
        var lines: [String] = []
        while let line = readLine() { lines.append(line) }
        process.wait()
        return lines
    }

    /// SIGKILL, as a crash or the out-of-memory killer would end it; waits for it to go.
    public mutating func kill() {
        process.kill()
        _ = finish()
    }

    /// The exit status, once finished (128 plus the signal for one that was killed).
    public var terminationStatus: Int32 { process.wait().status }

    /// Whether the process ended by a signal (a crash or our SIGKILL) rather than exiting.
    public var wasSignalled: Bool { process.wait().signalled }
}

/// Prints a line to standard output at once (no buffering), so that a parent reading it
/// knows where the worker is even if it is killed the next moment.
public func printNow(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}
