#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal (`/dev/tty`) as the place to ask for a password, as `sudo` asks:
/// echo off, the answer read a key at a time, and the terminal's settings restored afterwards,
/// also when the process is ended by a signal meanwhile.
///
/// Keys are read with the terminal's line editing and signal keys off, so that Ctrl-C and
/// Ctrl-D arrive as keys and cancel the prompt rather than killing the process or waiting for
/// Enter; Backspace and the kill-line key (Ctrl-U) still edit the answer.
final class TerminalPrompt {
    /// The longest answer kept (Linux-PAM's PAM_MAX_RESP_SIZE is 512).
    static let maximumAnswer = 1024

    private let descriptor: Int32

    /// The process's controlling terminal, or nil when it has none (a daemon, a CI job, a
    /// program started with `setsid`). Opened without following links and checked to be a
    /// terminal, so that nothing else is ever read as one.
    init?() {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFCHR, isatty(descriptor) == 1 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Writes `text` on the terminal, control characters other than newlines shown as `?`:
    /// the reason comes from the application and must not move the cursor or retitle windows.
    func show(_ text: String) {
        var bytes = text.utf8.map { byte -> UInt8 in
            byte < 0x20 && byte != UInt8(ascii: "\n") || byte == 0x7F ? UInt8(ascii: "?") : byte
        }
        // A terminal that takes no more (hung up) leaves nowhere to show the text.
        _ = SystemCall.writeAll(descriptor, bytes)
        bytes.zeroize()
    }

    /// Shows `prompt` and reads one answer, echoed only when `echo` is true. Empty, Ctrl-C,
    /// Ctrl-D, Ctrl-\ and the end of input are `.cancelled`; an answer longer than ``maximumAnswer``
    /// is `.authenticationFailed` (no password is that long).
    func ask(_ prompt: String, echo: Bool) -> Result<SecretBytes, PresenceFailure> {
        var before = termios()
        guard tcgetattr(descriptor, &before) == 0 else { return .failure(.notInteractive) }
        var keys = before
        keys.c_lflag &= ~tcflag_t(ICANON | ISIG | ECHO | ECHONL)
        withUnsafeMutableBytes(of: &keys.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        TerminalRestoration.begin(descriptor: descriptor, settings: before, prompting: keys)
        // Echo off before the prompt shows, so that nothing typed after it is ever echoed;
        // TCSAFLUSH: what was typed before it appeared is not the answer.
        tcsetattr(descriptor, TCSAFLUSH, &keys)
        show(prompt)
        let answer = readAnswer(keysOf: before, echo: echo)
        tcsetattr(descriptor, TCSANOW, &before)
        TerminalRestoration.end()
        // The user's Enter was not echoed: end the prompt's line.
        show("\n")
        return answer
    }

    private func readAnswer(keysOf settings: termios, echo: Bool) -> Result<SecretBytes, PresenceFailure> {
        let interrupt = Self.control(settings, VINTR, default: 0x03)
        let endOfInput = Self.control(settings, VEOF, default: 0x04)
        let erase = Self.control(settings, VERASE, default: 0x7F)
        let killLine = Self.control(settings, VKILL, default: 0x15)
        // Ctrl-\ would quit and Ctrl-Z suspend: the first cancels, the second is not part of
        // any password and is ignored.
        let quit = Self.control(settings, VQUIT, default: 0x1C)
        let suspend = Self.control(settings, VSUSP, default: 0x1A)
        var length = 0
        var outcome: PresenceFailure?
        let typed = SecretBytes(count: Self.maximumAnswer + 1) { buffer in
            var key: UInt8 = 0
            while true {
                let read = withUnsafeMutableBytes(of: &key) { SystemCall.read(descriptor, into: $0) }
                guard case .success(1) = read, key != interrupt, key != endOfInput, key != quit else {
                    outcome = .cancelled
                    break
                }
                if key == UInt8(ascii: "\n") || key == UInt8(ascii: "\r") { break }
                if key == suspend { continue }
                if key == erase || key == 0x08 {
                    if length > 0 { length -= 1; buffer[length] = 0 }
                } else if key == killLine {
                    while length > 0 { length -= 1; buffer[length] = 0 }
                } else if length < buffer.count {
                    buffer[length] = key
                    length += 1
                    if echo { show(String(decoding: [key], as: UTF8.self)) }
                }
            }
            key = 0
        }
        if let outcome { return .failure(outcome) }
        guard length > 0 else { return .failure(.cancelled) }
        guard length <= Self.maximumAnswer else { return .failure(.authenticationFailed) }
        return .success(typed.withUnsafeBytes { SecretBytes(copying: UnsafeRawBufferPointer(rebasing: $0[..<length])) })
    }

    /// The terminal's key for `index` in `settings`, or `fallback` when it is disabled.
    private static func control(_ settings: termios, _ index: Int32, default fallback: UInt8) -> UInt8 {
        let key = withUnsafeBytes(of: settings.c_cc) { $0[Int(index)] }
        return key == 0 || key == 0xFF ? fallback : key
    }
}
