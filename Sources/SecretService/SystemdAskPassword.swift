/// `systemd-ask-password`, where no pinentry is installed: one run per attempt, the message
/// as its argument, the password on its standard output up to a newline; a status other
/// than 0 means the user cancelled (or nothing could ask within its timeout).
struct SystemdAskPassword {
    let path: String
    /// Seconds it waits for an answer before it gives up.
    static let timeout = 120

    func ask(_ text: PromptText, attempts: Int, dismissal: PromptDismissal,
             check: ([UInt8]) -> PasswordCheck) -> PromptOutcome {
        for attempt in 1...attempts {
            let message = (attempt > 1 ? text.wrongPassword + " " : "") + text.description
            let program: PromptProgram
            do throws(PromptFailure) {
                program = try PromptProgram.start(
                    path, ["--id=keychain-secret-service", "--timeout=\(Self.timeout)", message], talks: false)
            } catch {
                guard case .failed(let reason) = error else { return .dismissed }
                return .failed(reason)
            }
            guard dismissal.attach(program) else {
                program.finish()
                return .dismissed
            }
            var password = program.receiveLine()
            let exitedWell = program.finish()
            dismissal.detach()
            defer { password?.zeroBytes() }
            guard exitedWell, !dismissal.isDismissed, let password else { return .dismissed }
            switch check(password) {
            case .accepted: return .accepted
            case .wrong: continue
            case .failed(let reason): return .failed(reason)
            }
        }
        return .dismissed
    }
}
