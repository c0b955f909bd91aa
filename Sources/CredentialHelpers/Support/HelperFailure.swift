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
    package static func status(_ status: OSStatus, during call: String) -> HelperFailure {
        let text = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
        return HelperFailure("\(call): \(text) (\(status))")
    }
}
