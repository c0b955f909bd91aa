#if canImport(Glibc)
import Glibc
#endif

/// The program named by `KEYCHAIN_ASKPASS` that asks for a password when the process has no
/// terminal (a desktop dialog, a test's script), as `SUDO_ASKPASS` and `SSH_ASKPASS` are:
/// run without a shell with the prompt as its one argument; its answer is what it writes on
/// standard output up to the first newline; an exit status other than 0 means the user
/// declined.
struct AskpassAgent {
    /// The environment variable that names the agent.
    static let variable = "KEYCHAIN_ASKPASS"
    /// The most output read from an agent, newline included: no password is longer.
    static let maximumOutput = 4096

    let path: String

    /// The agent the environment names, or nil when `KEYCHAIN_ASKPASS` is unset or empty.
    static func fromEnvironment() -> AskpassAgent? {
        guard let value = getenv(variable), value.pointee != 0 else { return nil }
        return AskpassAgent(path: String(cString: value))
    }

    /// Runs the agent with `prompt` and reads its answer. An agent that cannot be started is
    /// `.unavailable`; one that declines (non-zero exit, killed, empty answer) is `.cancelled`;
    /// one that writes more than ``maximumOutput`` bytes without a newline is `.unavailable`.
    func ask(_ prompt: String) -> Result<SecretBytes, PresenceFailure> {
        guard path.hasPrefix("/") else {
            return .failure(.unavailable("\(Self.variable) must name a program by its absolute path"))
        }
        var ends: [Int32] = [-1, -1]
        guard ChildProgram.makePipe(&ends) == 0 else {
            return .failure(.unavailable("no pipe for \(Self.variable): \(String(cString: strerror(errno)))"))
        }
        // The agent reads nothing of ours: standard input is /dev/null, output our pipe.
        let child: pid_t
        do {
            child = try ChildProgram.start(path, [prompt], input: nil, output: ends[1], discardErrors: false)
            close(ends[1])
        } catch {
            close(ends[1])
            close(ends[0])
            return .failure(.unavailable("\(Self.variable) (\(path)) cannot be run: \(error.reason)"))
        }
        let answer = readLine(from: ends[0])
        // The agent's end: whatever it writes after the newline is not read (it gets EPIPE).
        close(ends[0])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        // Output past the bound is the agent's fault whatever its status (which depends on
        // whether it wrote the rest before the pipe closed).
        if case .failure(.unavailable) = answer { return answer }
        // Exited (no signal) with status 0.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { return .failure(.cancelled) }
        return answer
    }

    /// The output up to the first newline, held in memory that is zeroed when released.
    private func readLine(from descriptor: Int32) -> Result<SecretBytes, PresenceFailure> {
        var length = 0
        var ended = false
        let output = SecretBytes(count: Self.maximumOutput) { buffer in
            let read = SystemCall.fill(buffer, from: descriptor) { filled, added in
                filled[added].contains(UInt8(ascii: "\n"))
            }
            length = read.count
            if let newline = buffer[..<length].firstIndex(of: UInt8(ascii: "\n")) {
                // What follows the newline is not part of the answer.
                for index in newline..<length { buffer[index] = 0 }
                length = newline
                ended = true
            } else {
                // The end of its output, or a failed read, which ends it too; a full buffer
                // without a newline is not an answer.
                ended = read.failure != nil || length < buffer.count
            }
        }
        guard ended else {
            return .failure(.unavailable("\(Self.variable) wrote more than \(Self.maximumOutput) bytes without a newline"))
        }
        guard length > 0 else { return .failure(.cancelled) }
        return .success(output.withUnsafeBytes { SecretBytes(copying: UnsafeRawBufferPointer(rebasing: $0[..<length])) })
    }
}
