@_implementationOnly import KeychainCore

extension LAError {
    /// The error an evaluation answers when presence could not be proven. PAM that cannot be
    /// loaded is ``LAError/Code/passcodeNotSet``: Apple's answer on a device where no password
    /// can be checked at all, which is what such a system is; the reason is kept for
    /// developers (`NSDebugDescription`).
    init(_ failure: PresenceFailure) {
        switch failure {
        case .authenticationFailed: self.init(Code.authenticationFailed)
        case .cancelled: self.init(Code.userCancel)
        case .notInteractive: self.init(Code.notInteractive)
        case .unavailable(let reason): self.init(Code.passcodeNotSet, userInfo: ["NSDebugDescription": reason])
        }
    }
}
