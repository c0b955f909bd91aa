import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A worker process of a proof suite: the tests' KeychainTestHelper or the long runs' own
/// executable, started with a keychain chosen through the environment, as any program's.
public struct WorkerProcess {
    public let process: Process
    private let output: Pipe
    private var buffered: [UInt8] = []

    /// Starts `executable arguments` with `XDG_DATA_HOME` and `KEYCHAIN_ACCESS_GROUPS` set.
    public init(_ executable: URL, _ arguments: [String], dataHome: URL, accessGroups: String) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        environment["KEYCHAIN_ACCESS_GROUPS"] = accessGroups
        process.environment = environment
        output = Pipe()
        process.standardOutput = output
        // What the library logs about damage it meets is expected here, and would drown the
        // report; the checks read the worker's statuses instead.
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The next line the worker printed, or nil at the end of its output.
    public mutating func readLine() -> String? {
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeFirst(newline + 1)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &chunk, chunk.count)
            if count <= 0 { return nil }
            buffered += chunk[..<count]
        }
    }

    /// Reads to the end of the output and waits for the exit; the lines printed.
    public mutating func finish() -> [String] {
        var lines: [String] = []
        while let line = readLine() { lines.append(line) }
        process.waitUntilExit()
        return lines
    }

    /// SIGKILL, as a crash or the out-of-memory killer would end it; waits for it to go.
    public mutating func kill() {
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        _ = finish()
    }

    /// Whether the process ended by a signal (a crash or our SIGKILL) rather than exiting.
    public var wasSignalled: Bool { process.terminationReason == .uncaughtSignal }
}

/// Prints a line to standard output at once (no buffering), so that a parent reading it
/// knows where the worker is even if it is killed the next moment.
public func printNow(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}
