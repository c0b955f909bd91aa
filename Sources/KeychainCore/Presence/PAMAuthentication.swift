#if canImport(Glibc)
import Glibc
#endif
internal import CPAM

/// One PAM transaction that checks the login password of a user, with the service name
/// `swift-keychain`: `/etc/pam.d/swift-keychain` when the system has one, PAM's `other`
/// otherwise. Its conversation asks through a ``PromptChannel``.
enum PAMAuthentication {
    static let service = "swift-keychain"

    /// Why PAM cannot be used here (libpam.so.0 does not load), or nil when it can.
    static var loadFailure: String? {
        var error: UnsafePointer<CChar>?
        guard cpam_load(&error) != 0 else { return nil }
        return error.map { String(cString: $0) } ?? "libpam.so.0 cannot be loaded"
    }

    /// Authenticates `user` (pam_authenticate, then pam_acct_mgmt so that an expired or
    /// locked account does not prove presence). An account without a password never passes
    /// (PAM_DISALLOW_NULL_AUTHTOK).
    static func authenticate(user: String, reason: String, channel: PromptChannel) -> Result<Void, PresenceFailure> {
        if let loadFailure { return .failure(.unavailable(loadFailure)) }
        let conversation = PAMConversation(channel: channel, reason: reason)
        let context = Unmanaged.passRetained(conversation)
        defer { context.release() }
        var functions = cpam_conv(conv: converse, appdata_ptr: context.toOpaque())
        var handle: OpaquePointer?
        let started = cpam_start(service, user, &functions, &handle)
        guard started == CPAM_SUCCESS, let handle else {
            return .failure(.unavailable("PAM could not start the \(service) service (status \(started))"))
        }
        var status = cpam_authenticate(handle, CPAM_DISALLOW_NULL_AUTHTOK)
        if status == CPAM_SUCCESS {
            status = cpam_acct_mgmt(handle, CPAM_DISALLOW_NULL_AUTHTOK)
            // The password was right and has expired: the user is present all the same; the
            // change of password is for a login to ask.
            if status == CPAM_NEW_AUTHTOK_REQD { status = CPAM_SUCCESS }
        }
        let explanation = String(cString: cpam_strerror(handle, status))
        cpam_end(handle, status)
        if status == CPAM_SUCCESS { return .success(()) }
        // What the conversation saw (a cancel, no answer) says more than the status PAM's
        // modules make of it.
        return .failure(conversation.failure ?? failure(forStatus: status, explanation: explanation))
    }

    /// What a PAM status other than success means for presence.
    static func failure(forStatus status: Int32, explanation: String) -> PresenceFailure {
        switch status {
        case CPAM_AUTH_ERR, CPAM_CRED_INSUFFICIENT, CPAM_USER_UNKNOWN, CPAM_MAXTRIES, CPAM_PERM_DENIED,
            CPAM_ACCT_EXPIRED:
            .authenticationFailed
        // The conversation gave up without saying why: only a cancel does that.
        case CPAM_CONV_ERR, CPAM_ABORT:
            .cancelled
        default:
            .unavailable("PAM: \(explanation)")
        }
    }
}

/// The state of one transaction's conversation, which the C callback reaches through PAM's
/// `appdata_ptr`.
private final class PAMConversation {
    let channel: PromptChannel
    let reason: String
    /// Whether the reason was given with an earlier prompt of this transaction.
    var reasonGiven = false
    /// Why the conversation could not answer, when it could not.
    var failure: PresenceFailure?

    init(channel: PromptChannel, reason: String) {
        self.channel = channel
        self.reason = reason
    }

    func ask(_ prompt: String, echo: Bool) -> Result<SecretBytes, PresenceFailure> {
        defer { reasonGiven = true }
        return channel.ask(prompt, reason: reasonGiven ? nil : reason, echo: echo)
    }
}

/// Linux-PAM's conversation: answers each prompt through the channel into `malloc`ed strings
/// that PAM owns (its modules overwrite them before freeing: `_pam_overwrite` in
/// `_pam_drop_reply` and pam_get_authtok). The answer's own buffer is a SecretBytes, zeroed
/// when released. On any failure nothing is handed over and what was copied is cleared.
private let converse: cpam_conversation_function = { count, messages, responses, context in
    guard count > 0, count <= 32, let messages, let responses, let context else { return CPAM_CONV_ERR }
    let conversation = Unmanaged<PAMConversation>.fromOpaque(context).takeUnretainedValue()
    guard let replies = calloc(Int(count), MemoryLayout<cpam_response>.stride)?
        .bindMemory(to: cpam_response.self, capacity: Int(count))
    else { return CPAM_BUF_ERR }
    func discard() -> Int32 {
        for index in 0..<Int(count) {
            if let answer = replies[index].resp {
                explicit_bzero(answer, strlen(answer))
                free(answer)
            }
        }
        free(replies)
        return CPAM_CONV_ERR
    }
    for index in 0..<Int(count) {
        guard let message = messages[index]?.pointee else { return discard() }
        let text = message.msg.map { String(cString: $0) } ?? ""
        switch message.msg_style {
        case CPAM_PROMPT_ECHO_OFF, CPAM_PROMPT_ECHO_ON:
            switch conversation.ask(text, echo: message.msg_style == CPAM_PROMPT_ECHO_ON) {
            case .success(let answer):
                guard let copy = malloc(answer.count + 1)?.bindMemory(to: CChar.self, capacity: answer.count + 1) else {
                    return discard()
                }
                answer.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(copy).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                }
                copy[answer.count] = 0
                replies[index].resp = copy
            case .failure(let failure):
                conversation.failure = failure
                return discard()
            }
        case CPAM_ERROR_MSG, CPAM_TEXT_INFO:
            conversation.channel.inform(text)
        default:
            // Binary prompts and radio buttons: not a password conversation.
            return discard()
        }
    }
    responses.pointee = replies
    return CPAM_SUCCESS
}
