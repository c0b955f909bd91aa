import Foundation
import Security

/// The failure of a keychain operation: the Keychain Services status and its message.
///
/// Every throwing API of ``Keychain`` throws this type (the functions are declared
/// `throws(KeychainError)`), so a `catch` needs no cast, and the statuses that code reacts
/// to can be matched by name, without `import Security`:
///
/// ```swift
/// do {
///     try keychain.set("s3cr3t", forKey: "deploy-bot")
/// } catch KeychainError.interactionNotAllowed {
///     // Locked: try again later.
/// } catch {
///     print(error.status, error.message)
/// }
/// ```
///
/// ``status`` is the `OSStatus` a `SecItem` function returned, or, for failures this module
/// detects itself, the status that names them:
///
/// - `errSecParam` (``Code/param``): bad input, such as a port outside 0...65535, an extra
///   attribute that would override one the ``Keychain`` manages, or a value that cannot be
///   encoded.
/// - `errSecDecode` (``Code/decode``): stored bytes that are not the type asked for (a
///   string of bytes that are not UTF-8, a JSON value that does not decode).
/// - `errSecDuplicateItem` (``Code/duplicateItem``): a migration whose keys would collide.
/// - `errSecUserCanceled` (``Code/userCanceled``): an async operation whose task was
///   cancelled before it started.
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

    /// An error for a code, with its message from `SecCopyErrorMessageString`.
    public init(_ code: Code, reason: String? = nil) {
        self.init(status: code.rawValue, reason: reason)
    }

    /// The status as a ``Code``, for `switch error.code { case .itemNotFound: ... }`.
    public var code: Code { Code(rawValue: status) }

    /// The status, its message and the reason, for logs.
    public var description: String {
        let text = "KeychainError \(status): \(message)"
        guard let reason else { return text }
        return "\(text) (\(reason))"
    }
}
