#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the terminal's echo off while a secret is typed (termios), and back on afterwards,
/// also when the user presses Ctrl-C meanwhile: otherwise their shell would stay silent.
enum EchoOff {
    static func during<T>(_ read: () -> T) -> T {
        guard tcgetattr(STDIN_FILENO, &settingsBefore) == 0 else { return read() }
        var silent = settingsBefore
        silent.c_lflag &= ~tcflag_t(ECHO)
        let previousHandler = signal(SIGINT) { _ in
            // Both calls are async-signal-safe.
            tcsetattr(STDIN_FILENO, TCSANOW, &EchoOff.settingsBefore)
            _exit(130)
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &settingsBefore)
            signal(SIGINT, previousHandler)
        }
        return read()
    }

    // Read by the signal handler, which can capture nothing; written only on the main
    // thread before the handler is installed.
    nonisolated(unsafe) fileprivate static var settingsBefore = termios()
}
