import Foundation
import Security

/// A failure that ends keychainctl with a message on stderr and a nonzero exit status.
struct ToolFailure: Error {
    let message: String
    let exitStatus: Int32

    /// A Keychain Services status, reported as `security` reports one:
    /// `keychainctl: <operation>: <SecCopyErrorMessageString's text>`, exit status the
    /// status's low byte (errSecItemNotFound -25300 exits 44).
    static func status(_ status: OSStatus, during operation: String) -> ToolFailure {
        let text = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
        return ToolFailure(message: "keychainctl: \(operation): \(text)", exitStatus: exitStatus(for: status))
    }

    /// A failure that is not a Keychain Services status; it exits 1.
    static func other(_ text: String) -> ToolFailure {
        ToolFailure(message: "keychainctl: \(text)", exitStatus: 1)
    }

    /// The status truncated to 8 bits, as `security`'s exit status is. A failure whose low
    /// byte is 0 (-256, say) exits 1 instead: a script must never read it as success.
    static func exitStatus(for status: OSStatus) -> Int32 {
        let low = Int32(UInt8(truncatingIfNeeded: status))
        return low == 0 && status != 0 ? 1 : low
    }
}

/// Runs one SecItem call and turns a failing status into a ``ToolFailure`` that names it.
func check(_ status: OSStatus, _ operation: String) throws(ToolFailure) {
    guard status == errSecSuccess else { throw .status(status, during: operation) }
}
