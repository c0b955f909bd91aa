import Foundation
import Security
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks for a password as getpass(3) does for `security`: on the controlling terminal
/// (`/dev/tty`), with echo off, or on standard input and standard error when the process
/// has no terminal (a pipe in CI). The terminal's settings come back afterwards, also when
/// the prompt is interrupted (Security's ``SecPromptSignals``): a signal that ends the process
/// (Ctrl-C, `kill`, a closed window, an alarm) restores them and ends it by that signal, as a
/// shell reports it (128 + the signal); one that stops it (Ctrl-Z) restores them while it is
/// stopped, and the prompt silences the terminal again when it continues.
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
        if echoing {
            var silent = before
            silent.c_lflag &= ~tcflag_t(ECHO)
            SecPromptSignals.begin(descriptor: input, settings: before, prompting: silent)
            tcsetattr(input, TCSAFLUSH, &silent)
        }
        put(output, prompt)
        let answer = readLine(from: input)
        if echoing {
            tcsetattr(input, TCSAFLUSH, &before)
            SecPromptSignals.end()
        }
        // The user's Enter was not echoed, and piped answers never are: end the prompt's line.
        put(output, "\n")
        return answer
    }

    private static func put(_ descriptor: Int32, _ text: String) {
        // A terminal that takes no more (hung up) leaves nowhere to show the prompt.
        _ = DescriptorIO.writeAll(Data(text.utf8), to: descriptor)
    }

    /// Reads up to a newline a byte at a time, so that nothing after the line is consumed.
    private static func readLine(from descriptor: Int32) -> Data? {
        var line = Data()
        while let byte = DescriptorIO.readByte(descriptor) {
            if byte == UInt8(ascii: "\n") { return line }
            line.append(byte)
        }
        return line.isEmpty ? nil : line
    }
}
