/// Why the user's presence could not be proven. Each case has one Keychain Services status
/// (``keychainError``) and one LocalAuthentication error code.
package enum PresenceFailure: Error, Sendable, Hashable {
    /// The user answered, and the answer was wrong (PAM said no).
    case authenticationFailed
    /// The user cancelled the prompt (an empty answer, Ctrl-C, Ctrl-D, or the agent said no).
    case cancelled
    /// There is no one to ask: no controlling terminal and no agent, or the caller forbade
    /// interaction.
    case notInteractive
    /// Presence cannot be proven on this system (PAM cannot be loaded or started).
    case unavailable(String)

    /// The status SecItem calls answer with.
    package var keychainError: KeychainError {
        switch self {
        case .authenticationFailed: .authFailed
        case .cancelled: .userCanceled
        case .notInteractive: .interactionNotAllowed
        case .unavailable(let reason): .notAvailable(reason)
        }
    }
}
