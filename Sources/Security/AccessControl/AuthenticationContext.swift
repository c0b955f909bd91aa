@_implementationOnly import KeychainCore

/// What SecItem calls need of an authentication context passed with
/// `kSecUseAuthenticationContext` (LocalAuthentication's `LAContext` conforms).
package protocol AuthenticationContext: AnyObject {
    /// Whether the context's owner forbade prompts (`LAContext.interactionNotAllowed`).
    var interactionNotAllowed: Bool { get }

    /// Proves the user's presence for an item: succeeds at once when this context already
    /// holds a proof that is still valid; otherwise prompts (unless `allowPrompt` is false or
    /// interaction is not allowed, which is `.notInteractive`) and keeps the proof for later
    /// calls with the same context.
    func proveUserPresence(reason: String?, allowPrompt: Bool) -> Result<Void, PresenceFailure>

    /// The application password set with `setCredential(_:type: .applicationPassword)`, or nil.
    func applicationPassword() -> SecretBytes?
}
