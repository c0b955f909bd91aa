#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Proves that the user who runs this process is present: they type their own login password,
/// which PAM checks (service `swift-keychain`, PAM's `other` when the system has no
/// `/etc/pam.d/swift-keychain`), on the controlling terminal or, without one, through the agent
/// program `KEYCHAIN_ASKPASS` names. This is what `sudo` asks for; it is what an item's access
/// control ("ask the user before this secret is used") means on Linux.
///
/// One prompt at a time in a process: a second caller waits for the first prompt's answer.
package enum UserPresence {
    /// Held for the whole of a prompt, so that two threads never read the terminal at once.
    private static let promptLock = Mutex(())
    /// When this process last proved presence (ContinuousClock counts time asleep too).
    private static let lastProof = Mutex<ContinuousClock.Instant?>(nil)

    /// Asks the user to prove presence, giving `reason` (kSecUseOperationPrompt or
    /// LAContext.localizedReason) in the prompt, and waits for the answer. Never hangs without
    /// someone to ask: no terminal and no agent is `.notInteractive` at once.
    package static func prove(reason: String) -> Result<Void, PresenceFailure> {
        if let loadFailure = PAMAuthentication.loadFailure { return .failure(.unavailable(loadFailure)) }
        guard let user = userName() else {
            return .failure(.unavailable("user id \(geteuid()) has no name in the user database"))
        }
        return promptLock.withLock { _ in
            guard let channel = PromptChannel.available() else { return .failure(.notInteractive) }
            let outcome = PAMAuthentication.authenticate(user: user, reason: reason, channel: channel)
            if case .success = outcome { lastProof.withLock { $0 = .now } }
            return outcome
        }
    }

    /// Asks the user for an application password (`.applicationPassword` items read without a
    /// context that holds one) through the same terminal or agent. Nothing checks it here: the
    /// item's keys do.
    package static func askSecret(prompt: String) -> Result<SecretBytes, PresenceFailure> {
        promptLock.withLock { _ in
            guard let channel = PromptChannel.available() else { return .failure(.notInteractive) }
            return channel.ask(prompt, reason: nil, echo: false)
        }
    }

    /// Whether presence can be proven here at all (PAM loads).
    package static var isAvailable: Bool { unavailableReason == nil }

    /// Why presence cannot be proven here (libpam.so.0 does not load), or nil when it can.
    package static var unavailableReason: String? { PAMAuthentication.loadFailure }

    /// Whether this process proved presence within the last `seconds` (LAContext's
    /// `touchIDAuthenticationAllowableReuseDuration`: Apple's reuse of a recent unlock).
    package static func provedRecently(within seconds: Double) -> Bool {
        guard seconds > 0, let last = lastProof.withLock({ $0 }) else { return false }
        return ContinuousClock.now - last <= .milliseconds(Int64(seconds * 1000))
    }

    /// The name of the user this process runs as (its effective user id), as PAM knows users.
    private static func userName() -> String? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.pw_name
        else { return nil }
        return String(cString: name)
    }
}
