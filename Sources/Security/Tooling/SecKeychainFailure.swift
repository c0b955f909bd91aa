@_implementationOnly import KeychainCore

/// Why a call of this package's keychain tooling (archives, unreadable items) failed: the
/// status a `Sec*` function would return, and the reason in words.
///
/// Like every error of the library, the reason describes the request, never its values.
package struct SecKeychainFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Keychain Services status.
    package let status: OSStatus
    /// For errSecParam, what was wrong, in a sentence a user can act on; nil otherwise.
    package let parameterReason: String?
    /// What went wrong in this case, beyond what the status's message says (a database's
    /// mode, an I/O error's cause); nil when the status says it all.
    package let reason: String?
    package let description: String

    /// A failure of this module's own making (a file format, a key), with its reason.
    init(status: OSStatus, reason: String) {
        self.status = status
        parameterReason = status == errSecParam ? reason : nil
        self.reason = reason
        description = reason
    }

    init(_ error: KeychainError) {
        status = error.status
        if case .param(let reason) = error { parameterReason = reason } else { parameterReason = nil }
        reason = switch error {
        case .param(let reason), .notAvailable(let reason), .io(let reason), .unimplemented(let reason): reason
        case .wrongVersion, .missingEntitlement: error.description
        default: nil
        }
        description = error.description
    }
}
