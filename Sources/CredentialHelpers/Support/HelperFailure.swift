import Foundation
import Security

/// Why a credential helper stops: a message for the user that never holds a secret.
package struct HelperFailure: Error, Sendable {
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    /// A Keychain Services call that failed, named with the status's message, as `security`
    /// names the function that failed.
    /// A locked keychain is named with the command that unlocks it, since a helper run by git
    /// or Docker cannot ask for the password itself.
    package static func status(_ status: OSStatus, during call: String) -> HelperFailure {
        let text = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
        guard status == errSecInteractionNotAllowed else { return HelperFailure("\(call): \(text) (\(status))") }
        let keychain = KeychainEnvironment.current.keychainName
        return HelperFailure("\(call): \(text) (\(status)); the keychain \(keychain) is locked: "
                             + "unlock it with keychainctl unlock-keychain \(keychain)")
    }
}
