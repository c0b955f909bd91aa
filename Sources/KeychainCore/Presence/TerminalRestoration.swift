#if canImport(Glibc)
import Glibc
#endif

/// Puts the terminal's settings back when the process is ended by a signal while a prompt
/// has echo off: otherwise the user's shell would stay silent after `kill` or a closed
/// window. Only signals whose action is the default (ending the process) are caught, and only
/// during the prompt; the handler restores the settings and ends the process with the same
/// signal, as if it had not been caught.
///
/// The keys that would send SIGINT, SIGQUIT and SIGTSTP arrive as keys during the prompt (see
/// ``TerminalPrompt``), so only signals sent from outside reach here.
enum TerminalRestoration {
    /// The signals whose default action ends the process that are sent to prompts.
    private static let endingSignals = [SIGINT, SIGTERM, SIGQUIT, SIGHUP]

    /// Installs the handlers. Called with UserPresence's prompt lock held, so one prompt at a
    /// time writes the state the handler reads.
    static func begin(descriptor: Int32, settings: termios) {
        RestorationState.descriptor = descriptor
        RestorationState.settings = settings
        RestorationState.replaced = []
        for number in endingSignals {
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0,
                  unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 0,
                  current.sa_flags & SA_SIGINFO == 0
            else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = restoreAndEnd
            sigemptyset(&action.sa_mask)
            if sigaction(number, &action, nil) == 0 { RestorationState.replaced.append(number) }
        }
    }

    /// Puts back the default actions that ``begin(descriptor:settings:)`` replaced.
    static func end() {
        for number in RestorationState.replaced { signal(number, SIG_DFL) }
        RestorationState.replaced = []
    }
}

/// What the handler reads; it can capture nothing. Written only under the prompt lock, before
/// the handlers are installed.
private enum RestorationState {
    nonisolated(unsafe) static var descriptor: Int32 = -1
    nonisolated(unsafe) static var settings = termios()
    nonisolated(unsafe) static var replaced: [Int32] = []
}

/// Every call here is async-signal-safe. The signal is blocked while its handler runs, so the
/// raise takes effect on return, with the default action: the process ends by that signal.
private func restoreAndEnd(_ number: Int32) {
    tcsetattr(RestorationState.descriptor, TCSANOW, &RestorationState.settings)
    signal(number, SIG_DFL)
    raise(number)
}
