import Foundation

/// The domain of LocalAuthentication's errors, Apple's string.
public let LAErrorDomain = "com.apple.LocalAuthentication"

/// An error of LocalAuthentication: a ``Code`` with Apple's raw values, in ``LAErrorDomain``.
///
/// It converts to `NSError` (`error as NSError`) with that domain and code, and matches its
/// codes in `catch` clauses, as Apple's does:
///
/// ```swift
/// do {
///     try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "open the vault")
/// } catch LAError.userCancel {
///     // The user pressed Ctrl-C or Ctrl-D, or the agent declined.
/// }
/// ```
public struct LAError: CustomNSError, Hashable, Sendable {
    /// Why an evaluation failed, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable {
        /// The user answered with a wrong password (PAM refused it).
        case authenticationFailed = -1
        /// The user cancelled: Ctrl-C, Ctrl-D or an empty answer at the terminal, or the
        /// `KEYCHAIN_ASKPASS` agent exited with a status other than 0.
        case userCancel = -2
        /// The user chose the fallback button (Apple's dialogs only; never on Linux).
        case userFallback = -3
        /// The system cancelled the evaluation (never on Linux).
        case systemCancel = -4
        /// No device password can be checked: on Linux, PAM (libpam.so.0) cannot be loaded.
        case passcodeNotSet = -5
        /// The device has no biometry: the answer to every biometric policy on Linux.
        case biometryNotAvailable = -6
        /// No biometric identity is enrolled (never on Linux: there is no biometry).
        case biometryNotEnrolled = -7
        /// Biometry is locked after failed attempts (never on Linux).
        case biometryLockout = -8
        /// The application cancelled the evaluation (never on Linux).
        case appCancel = -9
        /// The context was invalidated with ``LAContext/invalidate()``.
        case invalidContext = -10
        /// No paired watch or companion device: the answer to the watch policy on Linux.
        case watchNotAvailable = -11
        /// No biometric accessory is paired (never on Linux).
        case biometryNotPaired = -12
        /// The biometric accessory is not connected (never on Linux).
        case biometryDisconnected = -13
        /// Invalid dimensions (never on Linux).
        case invalidDimensions = -14
        /// The evaluation needs the user, and there is no one to ask: the context forbids
        /// interaction (``LAContext/interactionNotAllowed``), or the process has no controlling
        /// terminal and no `KEYCHAIN_ASKPASS` agent.
        case notInteractive = -1004

        /// Apple's newer name of ``watchNotAvailable``, with the same raw value.
        public static var companionNotAvailable: Code { .watchNotAvailable }
        /// Apple's first name of ``biometryNotAvailable``.
        @available(*, deprecated, renamed: "biometryNotAvailable")
        public static var touchIDNotAvailable: Code { .biometryNotAvailable }
        /// Apple's first name of ``biometryNotEnrolled``.
        @available(*, deprecated, renamed: "biometryNotEnrolled")
        public static var touchIDNotEnrolled: Code { .biometryNotEnrolled }
        /// Apple's first name of ``biometryLockout``.
        @available(*, deprecated, renamed: "biometryLockout")
        public static var touchIDLockout: Code { .biometryLockout }

        /// What the error says to a user.
        var message: String {
            switch self {
            case .authenticationFailed: "Authentication failed: the password was not accepted."
            case .userCancel: "Authentication was canceled by the user."
            case .userFallback: "The user chose the fallback authentication."
            case .systemCancel: "Authentication was canceled by the system."
            case .passcodeNotSet: "No device password can be checked on this system."
            case .biometryNotAvailable: "Biometry is not available on this device."
            case .biometryNotEnrolled: "No biometric identities are enrolled."
            case .biometryLockout: "Biometry is locked out."
            case .appCancel: "Authentication was canceled by the application."
            case .invalidContext: "The authentication context was invalidated."
            case .watchNotAvailable: "No companion device is available."
            case .biometryNotPaired: "No biometric accessory is paired."
            case .biometryDisconnected: "The biometric accessory is not connected."
            case .invalidDimensions: "Invalid dimensions."
            case .notInteractive: "Authentication needs the user, and interaction is not possible."
            }
        }
    }

    /// Why the evaluation failed.
    public let code: Code
    /// The description and any values given to ``init(_:userInfo:)``, as text.
    private let details: [String: String]

    /// An error with `code`; `userInfo`'s values are kept as their descriptions (an error must
    /// be `Sendable`), beside the code's own description.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        var details = userInfo.mapValues { "\($0)" }
        details[NSLocalizedDescriptionKey] = details[NSLocalizedDescriptionKey] ?? code.message
        self.details = details
    }

    /// The error an `NSError` of ``LAErrorDomain`` stands for, as Apple's bridged errors are
    /// made from one (`LAError(_nsError: error as NSError)`, as Valet writes it). Its
    /// `userInfo` values are kept as their descriptions.
    ///
    /// Apple's traps on an error of another domain; this one never traps: an error of another
    /// domain, or with a code LocalAuthentication does not have, is
    /// ``Code/authenticationFailed``, with the original domain and code in its `userInfo`.
    public init(_nsError error: NSError) {
        var userInfo = error.userInfo
        let code = error.domain == LAErrorDomain ? Code(rawValue: error.code) : nil
        if code == nil {
            userInfo["NSUnderlyingErrorDomain"] = error.domain
            userInfo["NSUnderlyingErrorCode"] = error.code
        }
        self.init(code ?? .authenticationFailed, userInfo: userInfo)
    }

    /// ``LAErrorDomain``.
    public static var errorDomain: String { LAErrorDomain }
    /// The code's raw value, Apple's.
    public var errorCode: Int { code.rawValue }
    /// `NSLocalizedDescription` (what the code means) and what was given to ``init(_:userInfo:)``.
    public var errorUserInfo: [String: Any] { details }

    /// Two errors are equal when their codes are.
    public static func == (lhs: LAError, rhs: LAError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// ``Code/authenticationFailed``, as Apple's `LAError.authenticationFailed`.
    public static var authenticationFailed: Code { .authenticationFailed }
    /// ``Code/userCancel``, as Apple's `LAError.userCancel`.
    public static var userCancel: Code { .userCancel }
    /// ``Code/userFallback``, as Apple's `LAError.userFallback`.
    public static var userFallback: Code { .userFallback }
    /// ``Code/systemCancel``, as Apple's `LAError.systemCancel`.
    public static var systemCancel: Code { .systemCancel }
    /// ``Code/passcodeNotSet``, as Apple's `LAError.passcodeNotSet`.
    public static var passcodeNotSet: Code { .passcodeNotSet }
    /// ``Code/biometryNotAvailable``, as Apple's `LAError.biometryNotAvailable`.
    public static var biometryNotAvailable: Code { .biometryNotAvailable }
    /// ``Code/biometryNotEnrolled``, as Apple's `LAError.biometryNotEnrolled`.
    public static var biometryNotEnrolled: Code { .biometryNotEnrolled }
    /// ``Code/biometryLockout``, as Apple's `LAError.biometryLockout`.
    public static var biometryLockout: Code { .biometryLockout }
    /// ``Code/appCancel``, as Apple's `LAError.appCancel`.
    public static var appCancel: Code { .appCancel }
    /// ``Code/invalidContext``, as Apple's `LAError.invalidContext`.
    public static var invalidContext: Code { .invalidContext }
    /// ``Code/watchNotAvailable``, as Apple's `LAError.watchNotAvailable`.
    public static var watchNotAvailable: Code { .watchNotAvailable }
    /// ``Code/watchNotAvailable``, as Apple's `LAError.companionNotAvailable`.
    public static var companionNotAvailable: Code { .watchNotAvailable }
    /// ``Code/biometryNotPaired``, as Apple's `LAError.biometryNotPaired`.
    public static var biometryNotPaired: Code { .biometryNotPaired }
    /// ``Code/biometryDisconnected``, as Apple's `LAError.biometryDisconnected`.
    public static var biometryDisconnected: Code { .biometryDisconnected }
    /// ``Code/invalidDimensions``, as Apple's `LAError.invalidDimensions`.
    public static var invalidDimensions: Code { .invalidDimensions }
    /// ``Code/notInteractive``, as Apple's `LAError.notInteractive`.
    public static var notInteractive: Code { .notInteractive }
    /// Apple's first names of the biometry codes.
    @available(*, deprecated, renamed: "biometryNotAvailable")
    public static var touchIDNotAvailable: Code { .biometryNotAvailable }
    @available(*, deprecated, renamed: "biometryNotEnrolled")
    public static var touchIDNotEnrolled: Code { .biometryNotEnrolled }
    @available(*, deprecated, renamed: "biometryLockout")
    public static var touchIDLockout: Code { .biometryLockout }
}

/// `catch LAError.userCancel`: an error matches a code when it is an ``LAError`` with that
/// code, or an `NSError` of ``LAErrorDomain`` with that code (what `canEvaluatePolicy` gives).
public func ~= (code: LAError.Code, error: any Error) -> Bool {
    if let error = error as? LAError { return error.code == code }
    let bridged = error as NSError
    return bridged.domain == LAErrorDomain && bridged.code == code.rawValue
}
