import Foundation
import Synchronization

/// Why asking for a password failed, for the provider's standard error: names programs,
/// never a password.
enum PromptFailure: Error, Sendable {
    case failed(String)
}

/// What came of asking the user.
enum PromptOutcome: Sendable, Equatable {
    /// A password was given and the keychain took it (unlocked, or created with it).
    case accepted
    /// The user cancelled, the prompt was dismissed, or every attempt was wrong.
    case dismissed
    /// The program failed (it could not be run, or broke the protocol): dismissed too.
    case failed(String)
}

/// What the keychain said of one password.
enum PasswordCheck: Sendable {
    case accepted
    case wrong
    case failed(String)
}

/// The words of a prompt.
struct PromptText: Sendable {
    let title: String
    let description: String
    let prompt: String
    /// Shown before another attempt, after a wrong password.
    let wrongPassword: String

    static func unlocking(keychain name: String) -> PromptText {
        PromptText(title: "Unlock keychain",
                   description: "An application wants access to the keychain \u{201C}\(name)\u{201D}. "
                       + "Enter its password to unlock it.",
                   prompt: "Password:",
                   wrongPassword: "The password was wrong. Try again.")
    }

    /// The first question for a new collection's password; `again` after the two answers
    /// differed.
    static func newCollection(label: String, again: Bool) -> PromptText {
        PromptText(title: "New keychain",
                   description: (again ? "The passwords did not match. " : "")
                       + "An application wants to create the keychain \u{201C}\(label)\u{201D}. "
                       + "Choose its password (empty for none).",
                   prompt: "Password:",
                   wrongPassword: "")
    }

    /// The second question for a new collection's password.
    static func retypeNewCollection(label: String) -> PromptText {
        PromptText(title: "New keychain",
                   description: "Type the password of the new keychain \u{201C}\(label)\u{201D} again.",
                   prompt: "Password:",
                   wrongPassword: "")
    }
}

/// The program that asks the user for the keychain's password: whichever `pinentry` is
/// first on `PATH` (the Assuan protocol) when it has a display to show on, or else
/// `systemd-ask-password`. Each gets ``attempts`` tries.
enum PasswordAsker: Sendable {
    case pinentry(path: String)
    case systemdAskPassword(path: String)

    /// Tries before the prompt gives up, as pinentry's callers (gpg-agent) allow.
    static let attempts = 3

    /// What asks on this machine, from the provider's `PATH` and environment; nil when
    /// nothing can (``unavailableReason()`` says why).
    ///
    /// pinentry is used only with a display (`DISPLAY` or `WAYLAND_DISPLAY` set): the provider
    /// talks to it over pipes, so a pinentry without a display falls back to a terminal it
    /// does not have and refuses every question. A prompt handed out then could only end
    /// dismissed, which clients take for the user's "no"; nothing asking is said at once instead.
    static func available() -> PasswordAsker? {
        if hasDisplay(), let path = PromptProgram.find("pinentry") { return .pinentry(path: path) }
        if let path = PromptProgram.find("systemd-ask-password") { return .systemdAskPassword(path: path) }
        return nil
    }

    /// Why ``available()`` found nothing, for a client's error: what is missing.
    static func unavailableReason() -> String {
        guard PromptProgram.find("pinentry") != nil else {
            return "neither pinentry nor systemd-ask-password is on the PATH of keychain-secret-service"
        }
        return "pinentry has no display to show on (keychain-secret-service has neither DISPLAY nor WAYLAND_DISPLAY) "
            + "and systemd-ask-password is not on its PATH"
    }

    /// Whether the provider's environment names a display a graphical pinentry can show on.
    private static func hasDisplay() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        return ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
    }

    /// Asks until `check` accepts a password or the attempts run out. Each running program is
    /// handed to `dismissal`, which stops it when the prompt is dismissed.
    func ask(_ text: PromptText, attempts: Int = Self.attempts, dismissal: PromptDismissal,
             check: ([UInt8]) -> PasswordCheck) -> PromptOutcome {
        switch self {
        case .pinentry(let path):
            return Pinentry(path: path).ask(text, attempts: attempts, dismissal: dismissal, check: check)
        case .systemdAskPassword(let path):
            return SystemdAskPassword(path: path).ask(text, attempts: attempts, dismissal: dismissal, check: check)
        }
    }

    /// Asks for a new collection's password twice, as `keychainctl create-keychain` does,
    /// until both answers are the same or the attempts run out; then hands it to `take`
    /// (which creates the keychain: `.wrong` from it is taken as a failure). The first answer
    /// is held only until the second is compared with it, then zeroed.
    func askNew(label: String, dismissal: PromptDismissal, take: ([UInt8]) -> PasswordCheck) -> PromptOutcome {
        for attempt in 1...Self.attempts {
            var first: [UInt8] = []
            defer { first.zeroBytes() }
            let asked = ask(.newCollection(label: label, again: attempt > 1), attempts: 1, dismissal: dismissal) {
                first = $0
                return .accepted
            }
            guard asked == .accepted else { return asked }
            var differed = false
            var outcome = PromptOutcome.dismissed
            let retyped = ask(.retypeNewCollection(label: label), attempts: 1, dismissal: dismissal) { second in
                guard second == first else {
                    differed = true
                    return .wrong
                }
                switch take(second) {
                case .accepted: outcome = .accepted
                case .wrong: outcome = .failed("the new keychain refused its password")
                case .failed(let reason): outcome = .failed(reason)
                }
                return .accepted
            }
            if retyped == .accepted { return outcome }
            // The answers differed: asked again; otherwise cancelled or failed.
            guard differed, !dismissal.isDismissed else { return retyped }
        }
        return .dismissed
    }
}

/// Dismisses a prompt from the bus thread while another thread asks: stops the program
/// asking, and any program it would start next.
final class PromptDismissal: Sendable {
    private struct State {
        var dismissed = false
        var program: PromptProgram?
    }

    private let state = Mutex(State())

    /// Records the running program; false (and the program stopped) when the prompt was
    /// dismissed already.
    func attach(_ program: PromptProgram) -> Bool {
        let dismissed = state.withLock { state in
            if !state.dismissed { state.program = program }
            return state.dismissed
        }
        if dismissed { program.stop() }
        return !dismissed
    }

    func detach() {
        state.withLock { $0.program = nil }
    }

    func dismiss() {
        let program = state.withLock { state in
            state.dismissed = true
            return state.program
        }
        program?.stop()
    }

    var isDismissed: Bool { state.withLock { $0.dismissed } }
}
