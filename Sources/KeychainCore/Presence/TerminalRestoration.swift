#if canImport(Glibc)
import Glibc
#endif

/// Keeps the terminal right while a prompt has echo off, whatever signal arrives: the one
/// mechanism of both password prompts (the presence check's ``TerminalPrompt`` and
/// keychainctl's).
///
/// - A signal that ends the process (Ctrl-C, `kill`, a closed window, an alarm, a user signal,
///   a CPU or file size limit, a broken pipe) puts the terminal's settings back and ends the
///   process with that same signal, as if it had not been caught: otherwise the user's shell
///   would stay silent.
/// - A signal that stops the process (Ctrl-Z, `kill -TSTP`, reading or writing the terminal
///   from the background) puts them back while it is stopped, and silences the terminal again
///   when it continues, to go on with the prompt.
/// - Continuing after a stop no handler saw (`kill -STOP`, then `fg`) silences the terminal
///   again too: a shell gives a continued job the terminal with its own settings, echo on.
///
/// Only during the prompt, and never a signal ignored on entry (`nohup keychainctl ...` must
/// outlive SIGHUP). A library's prompt catches only signals whose action is the default,
/// leaving the program's own handlers alone, and ends the process by the signal; a program's
/// own prompt (keychainctl's) also takes the place of handlers the Swift runtime installed
/// (its backtrace on SIGQUIT), and exits with 128 + the signal, as a shell reports it. One
/// prompt at a time: callers serialize.
package enum TerminalRestoration {
    /// The signals whose default action ends the process that a user, a shell or the system
    /// sends to a program (not those of a crash, which the runtime reports).
    static let endingSignals = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
                                SIGXCPU, SIGXFSZ, SIGPIPE, SIGIO, SIGPWR]
    /// The signals whose default action stops the process, and that a handler may catch.
    static let stoppingSignals = [SIGTSTP, SIGTTIN, SIGTTOU]

    /// Installs the handlers for a prompt on `descriptor`, whose settings were `settings`
    /// before it and are `prompting` during it. `ownPrompt`: the program's own prompt, which
    /// replaces any handler but an ignored signal's, and exits with 128 + the signal.
    package static func begin(descriptor: Int32, settings: termios, prompting: termios, ownPrompt: Bool = false) {
        RestorationState.descriptor = descriptor
        RestorationState.settings = settings
        RestorationState.prompting = prompting
        RestorationState.exits = ownPrompt
        RestorationState.replaced = []
        for number in endingSignals + stoppingSignals + [SIGCONT] {
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0 else { continue }
            let handler = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            let isDefault = handler == 0 && current.sa_flags & SA_SIGINFO == 0
            let isIgnored = handler == unsafeBitCast(SIG_IGN, to: Int.self) && current.sa_flags & SA_SIGINFO == 0
            guard isDefault || (ownPrompt && !isIgnored) else { continue }
            var action = sigaction()
            if stoppingSignals.contains(number) {
                action.__sigaction_handler.sa_handler = restoreAndStop
            } else if number == SIGCONT {
                action.__sigaction_handler.sa_handler = silenceAgain
            } else {
                action.__sigaction_handler.sa_handler = restoreAndEnd
            }
            sigemptyset(&action.sa_mask)
            // A read of the answer goes on after a handler that returns.
            action.sa_flags = SA_RESTART
            if sigaction(number, &action, nil) == 0 { RestorationState.replaced.append(number) }
        }
    }

    /// Puts back the default actions that ``begin(descriptor:settings:prompting:)`` replaced.
    package static func end() {
        for number in RestorationState.replaced { signal(number, SIG_DFL) }
        RestorationState.replaced = []
    }
}

/// What the handlers read; they can capture nothing. Written only before the handlers are
/// installed.
private enum RestorationState {
    nonisolated(unsafe) static var descriptor: Int32 = -1
    nonisolated(unsafe) static var settings = termios()
    nonisolated(unsafe) static var prompting = termios()
    /// Whether an ending signal exits with 128 + its number rather than ending the process by it.
    nonisolated(unsafe) static var exits = false
    nonisolated(unsafe) static var replaced: [Int32] = []
}

// Every call in the handlers is async-signal-safe.

/// The signal is blocked while its handler runs, so the raise takes effect on return, with
/// the default action: the process ends by that signal (or, for a program's own prompt, exits
/// with 128 + it).
private func restoreAndEnd(_ number: Int32) {
    tcsetattr(RestorationState.descriptor, TCSANOW, &RestorationState.settings)
    if RestorationState.exits { _exit(128 + number) }
    signal(number, SIG_DFL)
    raise(number)
}

/// Echo back on, then stop as the default action would; once continued, the handler again
/// and the prompt's settings.
private func restoreAndStop(_ number: Int32) {
    let saved = errno
    tcsetattr(RestorationState.descriptor, TCSANOW, &RestorationState.settings)
    signal(number, SIG_DFL)
    // The signal is blocked while its handler runs: unblock it so that the stop happens here.
    var stopping = sigset_t()
    sigemptyset(&stopping)
    sigaddset(&stopping, number)
    sigprocmask(SIG_UNBLOCK, &stopping, nil)
    raise(number)
    // Continued.
    var action = sigaction()
    action.__sigaction_handler.sa_handler = restoreAndStop
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    sigaction(number, &action, nil)
    silenceIfForeground()
    errno = saved
}

/// Continued, perhaps after a stop no handler saw.
private func silenceAgain(_: Int32) {
    let saved = errno
    silenceIfForeground()
    errno = saved
}

/// The prompt's settings again, unless the process continued in the background (`bg`), where
/// changing the terminal would stop it once more; its next read of the terminal stops it
/// (SIGTTIN), and continuing it in the foreground comes back here.
private func silenceIfForeground() {
    guard tcgetpgrp(RestorationState.descriptor) == getpgrp() else { return }
    tcsetattr(RestorationState.descriptor, TCSANOW, &RestorationState.prompting)
}
