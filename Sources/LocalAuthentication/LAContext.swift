import Foundation
import Security
import Synchronization
@_implementationOnly import KeychainCore

/// Apple's longest reuse of a recent authentication, in seconds (five minutes).
public let LATouchIDAuthenticationMaximumAllowableReuseDuration: TimeInterval = 300

/// A context that evaluates authentication policies, with Apple's names and behaviour, so that
/// code written for Apple platforms (wrappers such as SimpleKeychain and Valet included)
/// compiles and runs unchanged on Linux.
///
/// What proves presence on Linux is the user's own login password, as `sudo` asks for it:
/// ``LAPolicy/deviceOwnerAuthentication`` asks the user who runs the process to type it, and
/// PAM checks it (service `swift-keychain`, or PAM's `other` when the system has no
/// `/etc/pam.d/swift-keychain`). The prompt appears on the process's controlling terminal; a
/// process without one runs the program named by the environment variable
/// `KEYCHAIN_ASKPASS` (as `SUDO_ASKPASS`), with the prompt as its argument, and reads the
/// password from its standard output; with neither, evaluation fails at once with
/// ``LAError/Code/notInteractive``. Linux has no biometry: the biometric, watch and companion
/// policies fail as on a Mac without Touch ID or a paired watch.
///
/// A context that evaluated successfully keeps its proof until ``invalidate()``: later
/// evaluations, and keychain items read with it (`kSecUseAuthenticationContext`), do not ask
/// again. All members are safe to use from any thread.
open class LAContext: NSObject, @unchecked Sendable {
    private struct State {
        var localizedReason = ""
        var localizedFallbackTitle: String?
        var localizedCancelTitle: String?
        var reuseDuration: TimeInterval = 0
        var interactionNotAllowed = false
        var invalidated = false
        /// Whether the user proved presence through this context.
        var proven = false
        /// The application password, a SecretBytes: typed `AnyObject` because the core is
        /// imported implementation-only and must not appear in the stored layout of a public
        /// class that other modules may subclass.
        var applicationPassword: AnyObject?
    }

    private let state = Mutex(State())

    /// A new context, which holds no proof.
    override public init() {
        super.init()
    }

    /// The reason shown with prompts that keychain items read with this context cause (the
    /// reason of ``evaluatePolicy(_:localizedReason:reply:)`` is given to it directly).
    open var localizedReason: String {
        get { state.withLock { $0.localizedReason } }
        set { state.withLock { $0.localizedReason = newValue } }
    }

    /// The title of Apple's fallback button. Kept, not shown: the terminal prompt has no
    /// buttons.
    open var localizedFallbackTitle: String? {
        get { state.withLock { $0.localizedFallbackTitle } }
        set { state.withLock { $0.localizedFallbackTitle = newValue } }
    }

    /// The title of Apple's cancel button. Kept, not shown: at the terminal, Ctrl-C or Ctrl-D
    /// cancels.
    open var localizedCancelTitle: String? {
        get { state.withLock { $0.localizedCancelTitle } }
        set { state.withLock { $0.localizedCancelTitle = newValue } }
    }

    /// How many seconds (0 to ``LATouchIDAuthenticationMaximumAllowableReuseDuration``; other
    /// values are clamped) a recent proof of presence by this process counts for a new
    /// evaluation of this context, without a prompt: Apple reuses a recent unlock of the
    /// device; on Linux, the last password this process had checked. 0, the default, always
    /// asks.
    open var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { state.withLock { $0.reuseDuration } }
        set {
            let clamped = newValue.isNaN ? 0 : min(max(newValue, 0), LATouchIDAuthenticationMaximumAllowableReuseDuration)
            state.withLock { $0.reuseDuration = clamped }
        }
    }

    /// When true, an evaluation that would prompt fails with ``LAError/Code/notInteractive``
    /// instead (a kept proof still answers).
    open var interactionNotAllowed: Bool {
        get { state.withLock { $0.interactionNotAllowed } }
        set { state.withLock { $0.interactionNotAllowed = newValue } }
    }

    /// Always ``LABiometryType/none``: Linux has no biometry.
    open var biometryType: LABiometryType { .none }

    /// Always nil: the state of enrolled biometry, and Linux has none.
    open var evaluatedPolicyDomainState: Data? { nil }

    /// Whether `policy` can be evaluated here. False with ``LAError/Code/biometryNotAvailable``
    /// (or ``LAError/Code/watchNotAvailable``) for policies that need biometry or a watch,
    /// ``LAError/Code/passcodeNotSet`` when PAM cannot be loaded, and
    /// ``LAError/Code/invalidContext`` after ``invalidate()``. It does not prompt, and does not
    /// consider whether there is a terminal to prompt on.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
        let obstacle = self.obstacle(to: policy)
        error?.pointee = obstacle.map { $0 as NSError }
        return obstacle == nil
    }

    /// Evaluates `policy`, asking the user with `localizedReason` when this context holds no
    /// proof yet, and calls `reply` on another thread with true, or false and an ``LAError``.
    open func evaluatePolicy(
        _ policy: LAPolicy, localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        // A thread of its own rather than a Dispatch worker: the prompt may wait minutes.
        Thread.detachNewThread { [self] in
            switch evaluate(policy, reason: localizedReason) {
            case .success: reply(true, nil)
            case .failure(let error): reply(false, error)
            }
        }
    }

    /// Evaluates `policy` as ``evaluatePolicy(_:localizedReason:reply:)`` does: true, or an
    /// ``LAError`` thrown.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
            evaluatePolicy(policy, localizedReason: localizedReason) { success, error in
                if success {
                    continuation.resume(returning: true)
                } else {
                    continuation.resume(throwing: error ?? LAError(.authenticationFailed))
                }
            }
        }
    }

    /// Evaluates what an access control asks for `operation`, as the keychain would before
    /// using its item or key: the user's presence when its constraints need it (asking with
    /// `localizedReason` when this context holds no proof yet), nothing otherwise. Constraints
    /// that only biometry, a watch or a companion could meet fail with
    /// ``LAError/Code/biometryNotAvailable``. `reply` is called on another thread.
    open func evaluateAccessControl(
        _ accessControl: SecAccessControl, operation: LAAccessControlOperation, localizedReason: String,
        reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let policy: LAPolicy? = !accessControl.requiresUserPresence ? nil
            : accessControl.presenceCanBeProven ? .deviceOwnerAuthentication : .deviceOwnerAuthenticationWithBiometrics
        guard let policy else {
            Thread.detachNewThread { reply(true, nil) }
            return
        }
        evaluatePolicy(policy, localizedReason: localizedReason, reply: reply)
    }

    /// Evaluates an access control as ``evaluateAccessControl(_:operation:localizedReason:reply:)``
    /// does: true, or an ``LAError`` thrown.
    open func evaluateAccessControl(_ accessControl: SecAccessControl, operation: LAAccessControlOperation,
                                    localizedReason: String) async throws -> Bool {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
            evaluateAccessControl(accessControl, operation: operation, localizedReason: localizedReason) { success, error in
                if success {
                    continuation.resume(returning: true)
                } else {
                    continuation.resume(throwing: error ?? LAError(.authenticationFailed))
                }
            }
        }
    }

    /// Forgets the proof and the credential; every later evaluation fails with
    /// ``LAError/Code/invalidContext``, and an evaluation waiting for the user when this is
    /// called ends with ``LAError/Code/appCancel``.
    open func invalidate() {
        state.withLock {
            $0.invalidated = true
            $0.proven = false
            $0.applicationPassword = nil
        }
    }

    /// Gives the context a credential: the application password of items protected with one,
    /// used instead of asking the user. nil removes it. False for ``LACredentialType/smartCardPIN``
    /// (no smart cards here) and after ``invalidate()``.
    @discardableResult
    open func setCredential(_ credential: Data?, type: LACredentialType) -> Bool {
        guard type == .applicationPassword else { return false }
        let secret = credential.map { data in data.withUnsafeBytes { SecretBytes(copying: $0) } }
        return state.withLock {
            guard !$0.invalidated else { return false }
            $0.applicationPassword = secret
            return true
        }
    }

    /// Whether a credential of `type` was set and not removed.
    open func isCredentialSet(_ type: LACredentialType) -> Bool {
        type == .applicationPassword && state.withLock { $0.applicationPassword != nil }
    }

    /// Why `policy` cannot be evaluated with this context, or nil.
    private func obstacle(to policy: LAPolicy) -> LAError? {
        if state.withLock({ $0.invalidated }) { return LAError(.invalidContext) }
        if let code = policy.unavailableOnLinux { return LAError(code) }
        if let reason = UserPresence.unavailableReason {
            return LAError(.passcodeNotSet, userInfo: [NSDebugDescriptionErrorKey: reason])
        }
        return nil
    }

    /// One evaluation, on the calling thread.
    private func evaluate(_ policy: LAPolicy, reason: String) -> Result<Void, LAError> {
        if let obstacle = obstacle(to: policy) { return .failure(obstacle) }
        switch presence(reason: reason, allowPrompt: true) {
        case .success:
            return .success(())
        case .failure(let failure):
            if state.withLock({ $0.invalidated }) { return .failure(LAError(.appCancel)) }
            return .failure(LAError(failure))
        }
    }

    /// The proof of presence for this context: the kept one, a recent one of this process
    /// within the reuse duration, or a new one from the user (kept). The one mechanism behind
    /// both evaluations and the keychain's item reads.
    fileprivate func presence(reason: String?, allowPrompt: Bool) -> Result<Void, PresenceFailure> {
        let (invalidated, proven, reuse, interactionNotAllowed, storedReason) = state.withLock {
            ($0.invalidated, $0.proven, $0.reuseDuration, $0.interactionNotAllowed, $0.localizedReason)
        }
        // Apple: invalidating a context cancels what it was doing.
        if invalidated { return .failure(.cancelled) }
        if proven { return .success(()) }
        if UserPresence.provedRecently(within: reuse) { return keep() }
        guard allowPrompt, !interactionNotAllowed else { return .failure(.notInteractive) }
        let outcome = UserPresence.prove(reason: reason ?? storedReason)
        guard case .success = outcome else { return outcome }
        return keep()
    }

    /// Keeps a proof, unless the context was invalidated meanwhile.
    private func keep() -> Result<Void, PresenceFailure> {
        state.withLock {
            guard !$0.invalidated else { return .failure(.cancelled) }
            $0.proven = true
            return .success(())
        }
    }
}

/// How SecItem calls reach a context passed with `kSecUseAuthenticationContext`.
extension LAContext: AuthenticationContext {
    package func proveUserPresence(reason: String?, allowPrompt: Bool) -> Result<Void, PresenceFailure> {
        presence(reason: reason, allowPrompt: allowPrompt)
    }

    package func applicationPassword() -> SecretBytes? {
        state.withLock { $0.applicationPassword as? SecretBytes }
    }
}
