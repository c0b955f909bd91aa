/// Proves that the user who runs this process is present: they type their own login password,
/// which PAM checks, on the controlling terminal or through an agent program.
///
/// INTERFACE STUB: the presence helper implements it (PAM loaded at run time, the terminal and
/// agent conversation). Callers rely only on what is declared here.
package enum UserPresence {
    /// Asks the user to prove presence, giving `reason` (kSecUseOperationPrompt or
    /// LAContext.localizedReason) in the prompt, and waits for the answer. Never hangs without
    /// someone to ask: no terminal and no agent is `.notInteractive` at once.
    package static func prove(reason: String) -> Result<Void, PresenceFailure> {
        .failure(.unavailable("user presence is not implemented yet"))
    }

    /// Asks the user for an application password (`.applicationPassword` items read without a
    /// context that holds one) through the same terminal or agent.
    package static func askSecret(prompt: String) -> Result<SecretBytes, PresenceFailure> {
        .failure(.unavailable("user presence is not implemented yet"))
    }

    /// Whether presence can be proven here at all (PAM loads).
    package static var isAvailable: Bool { false }
}
