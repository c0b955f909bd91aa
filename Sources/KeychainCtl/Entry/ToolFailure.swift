import Foundation
import Security

/// A failure that ends keychainctl with a message on stderr and a nonzero exit status.
package struct ToolFailure: Error {
    package let message: String
    package let exitStatus: Int32
    /// The Keychain Services status it reports, when it reports one.
    package var status: OSStatus? = nil

    package init(message: String, exitStatus: Int32, status: OSStatus? = nil) {
        (self.message, self.exitStatus, self.status) = (message, exitStatus, status)
    }

    /// A Keychain Services status, reported as `security` reports one:
    /// `keychainctl: <operation>: <SecCopyErrorMessageString's text>`, exit status the
    /// status's low byte (errSecItemNotFound -25300 exits 44).
    /// With a `reason`, what went wrong in the user's words comes first and the status's
    /// text follows in parentheses: `keychainctl: SecKeychainCreate /proc/nope/kc: there is
    /// no folder /proc/nope, ... (No keychain is available. ...)`.
    package static func status(_ status: OSStatus, during operation: String, reason: String? = nil) -> ToolFailure {
        let text = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
        return ToolFailure(message: "keychainctl: \(operation): " + (reason.map { "\($0) (\(text))" } ?? text),
                           exitStatus: ExitStatus.code(for: status), status: status)
    }

    /// An add with -U or a delete whose attributes match items of `groups`, several access
    /// groups: acting on the first would pick one program's item by chance.
    static func ambiguous(_ operation: String, groups: [String]) -> ToolFailure {
        ToolFailure(
            message: "keychainctl: \(operation): items of \(groups.count) access groups match (\(groups.joined(separator: ", "))); "
                + "name the one to change with --access-group <group>",
            exitStatus: ExitStatus.ambiguous.code)
    }

    /// This failure with `line` after its message.
    func adding(_ line: String) -> ToolFailure {
        ToolFailure(message: message + "\n" + line, exitStatus: exitStatus, status: status)
    }

    /// A failure the command has reported itself (or, asked to be quiet, not at all): only
    /// its exit status remains.
    static func reported(exitStatus: ExitStatus) -> ToolFailure {
        ToolFailure(message: "", exitStatus: exitStatus.code)
    }

    /// A failure that is not a Keychain Services status; it exits 1 (``ExitStatus/failure``).
    package static func other(_ text: String) -> ToolFailure {
        ToolFailure(message: "keychainctl: \(text)", exitStatus: ExitStatus.failure.code)
    }
}

/// Runs one SecItem call and turns a failing status into a ``ToolFailure`` that names it.
func check(_ status: OSStatus, _ operation: String) throws(ToolFailure) {
    guard status == errSecSuccess else { throw .status(status, during: operation) }
}
