import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks for a password as getpass(3) does for `security`: on the controlling terminal
/// (`/dev/tty`), with echo off, or on standard input and standard error when the process
/// has no terminal (a pipe in CI). The terminal's settings come back afterwards, also when
/// the prompt is interrupted: otherwise the user's shell would stay silent. Ctrl-C (SIGINT),
/// SIGTERM, SIGQUIT and SIGHUP restore them and end the process with 128 + the signal, as
/// a shell reports it; Ctrl-Z (SIGTSTP) restores them, stops the process, and silences the
/// terminal again when it continues (SIGCONT), to go on with the prompt.
enum PasswordPrompt {
    /// A new password, typed twice as `security` asks for a new item's or keychain's
    /// (`password data for new item: `, `retype password for new item: `); three tries.
    static func newPassword(_ prompt: String, retype: String) throws -> Data {
        for _ in 1...3 {
            let first = try password(prompt), second = try password(retype)
            if first == second { return first }
            ConsoleOutput.error("passwords don't match")
        }
        throw ToolFailure.other("the passwords did not match in three tries")
    }

    /// An existing password, typed once; the input ending first is a failure.
    static func password(_ prompt: String) throws -> Data {
        guard let answer = ask(prompt) else { throw ToolFailure.other("no password was entered") }
        return answer
    }

    /// One answer without its newline; nil when the input ends first.
    static func ask(_ prompt: String) -> Data? {
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
        defer { if terminal >= 0 { close(terminal) } }
        let input = terminal >= 0 ? terminal : STDIN_FILENO
        let output = terminal >= 0 ? terminal : STDERR_FILENO
        fflush(nil)
        var before = termios()
        let echoing = tcgetattr(input, &before) == 0
        if echoing { silence(input, restoring: before) }
        put(output, prompt)
        let answer = readLine(from: input)
        if echoing {
            tcsetattr(input, TCSAFLUSH, &before)
            for handled in PromptTerminal.handled { signal(handled, SIG_DFL) }
        }
        // The user's Enter was not echoed, and piped answers never are: end the prompt's line.
        put(output, "\n")
        return answer
    }

    private static func silence(_ input: Int32, restoring before: termios) {
        var silent = before
        silent.c_lflag &= ~tcflag_t(ECHO)
        (PromptTerminal.descriptor, PromptTerminal.settings, PromptTerminal.silent) = (input, before, silent)
        // A signal ignored on entry stays ignored: `nohup keychainctl ...` must outlive SIGHUP.
        PromptTerminal.handled = (PromptTerminal.endingSignals + [SIGTSTP]).filter { !isIgnored($0) }
        for handled in PromptTerminal.handled {
            if handled == SIGTSTP {
                signal(SIGTSTP, suspendPrompt)
            } else {
                signal(handled) { received in
                    // Every call here is async-signal-safe.
                    tcsetattr(PromptTerminal.descriptor, TCSANOW, &PromptTerminal.settings)
                    _exit(128 + received)
                }
            }
        }
        tcsetattr(input, TCSAFLUSH, &silent)
    }

    private static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private static func put(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        _ = write(descriptor, &bytes, bytes.count)
    }

    /// Reads up to a newline a byte at a time, so that nothing after the line is consumed.
    private static func readLine(from descriptor: Int32) -> Data? {
        var line = Data()
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return line.isEmpty ? nil : line }
            if byte == UInt8(ascii: "\n") { return line }
            line.append(byte)
        }
    }
}

/// What the signal handlers restore; they can capture nothing. Written on the main thread
/// before the handlers are installed.
private enum PromptTerminal {
    nonisolated(unsafe) static var descriptor: Int32 = STDIN_FILENO
    /// The terminal's settings before the prompt.
    nonisolated(unsafe) static var settings = termios()
    /// The same without echo, for the prompt.
    nonisolated(unsafe) static var silent = termios()
    /// The signals the prompt handles: those of ``endingSignals`` and SIGTSTP not ignored.
    nonisolated(unsafe) static var handled: [Int32] = []

    /// The signals whose default action ends the process and that a user or the system sends
    /// to a prompt: Ctrl-C, `kill`, Ctrl-\ and a closed terminal window.
    static let endingSignals = [SIGINT, SIGTERM, SIGQUIT, SIGHUP]
}

/// Ctrl-Z at the prompt: echo back on, then stop as the default action would; once continued
/// (SIGCONT), echo off again and the prompt goes on. Every call is async-signal-safe.
private func suspendPrompt(_: Int32) {
    tcsetattr(PromptTerminal.descriptor, TCSANOW, &PromptTerminal.settings)
    signal(SIGTSTP, SIG_DFL)
    // SIGTSTP is blocked while its handler runs: unblock it so that the stop happens here.
    var stopping = sigset_t()
    sigemptyset(&stopping)
    sigaddset(&stopping, SIGTSTP)
    sigprocmask(SIG_UNBLOCK, &stopping, nil)
    raise(SIGTSTP)
    // Continued.
    signal(SIGTSTP, suspendPrompt)
    tcsetattr(PromptTerminal.descriptor, TCSANOW, &PromptTerminal.silent)
}
