/// The kind of biometry a device has, with Apple's raw values. Always ``none`` on Linux.
public enum LABiometryType: Int, Sendable, Hashable {
    /// No biometry: the case of every Linux system.
    case none = 0
    /// Touch ID.
    case touchID = 1
    /// Face ID.
    case faceID = 2
    /// Optic ID.
    case opticID = 4

    /// Apple's first name of ``none``.
    @available(*, deprecated, renamed: "none")
    public static var LABiometryNone: LABiometryType { .none }
}
