import Foundation
import Security

/// The failure of a keychain operation: the Keychain Services status and its message.
///
/// Every throwing API of ``Keychain`` throws this type. ``status`` is the `OSStatus` a
/// `SecItem` function returned (for example `errSecInteractionNotAllowed` while the keychain
/// is locked, or `errSecMissingEntitlement` for an access group the process does not hold),
/// or, for failures this module detects itself, the status that names them:
///
/// - `errSecParam`: bad input, such as a port outside 0...65535, an extra attribute that
///   would override one the ``Keychain`` manages, or a value that cannot be encoded.
/// - `errSecDecode`: stored bytes that are not the type asked for (a ``Keychain/string(forKey:)-3xxvk``
///   of bytes that are not UTF-8, a JSON value that does not decode).
/// - `errSecDuplicateItem`: a migration whose keys would collide.
/// - `errSecUserCanceled`: an async operation whose task was cancelled before it started.
///
/// A missing item is not an error: reads return nil. Neither ``message``, ``reason`` nor
/// ``description`` ever contains a secret, a key or any other stored value.
public struct KeychainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status code, as Keychain Services defines it (`errSec...`).
    public let status: OSStatus
    /// The status's message, from `SecCopyErrorMessageString`.
    public let message: String
    /// What this module was doing or found, when it adds something to ``message``.
    public let reason: String?

    /// An error for a status, with its message from `SecCopyErrorMessageString`.
    ///
    /// - Parameters:
    ///   - status: The `OSStatus` to report.
    ///   - reason: Context that helps the reader; must not contain stored values.
    public init(status: OSStatus, reason: String? = nil) {
        self.status = status
        if let text = SecCopyErrorMessageString(status, nil) {
            self.message = text as String
        } else {
            self.message = "OSStatus \(status)"
        }
        self.reason = reason
    }

    /// The status, its message and the reason, for logs.
    public var description: String {
        let text = "KeychainError \(status): \(message)"
        guard let reason else { return text }
        return "\(text) (\(reason))"
    }
}
