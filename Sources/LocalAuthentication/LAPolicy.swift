/// What an evaluation must prove, with Apple's raw values.
///
/// On Linux only ``deviceOwnerAuthentication`` can be evaluated: the user types their login
/// password, which PAM checks. The other policies need biometry, a watch or a companion
/// device, which Linux does not have: they fail as on a Mac without Touch ID and without a
/// paired watch.
public enum LAPolicy: Int, Sendable, Hashable {
    /// Biometry alone. Fails with ``LAError/Code/biometryNotAvailable`` on Linux.
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometry, a watch, or the device's password: on Linux, the user's login password.
    case deviceOwnerAuthentication = 2
    /// A paired Apple Watch. Fails with ``LAError/Code/watchNotAvailable`` on Linux.
    case deviceOwnerAuthenticationWithWatch = 3
    /// Biometry or a paired Apple Watch. Fails with ``LAError/Code/biometryNotAvailable`` on
    /// Linux.
    case deviceOwnerAuthenticationWithBiometricsOrWatch = 4
    /// Wrist detection on watchOS. Fails with ``LAError/Code/biometryNotAvailable`` on Linux.
    case deviceOwnerAuthenticationWithWristDetection = 5

    /// A companion device (a watch, a Mac): Apple's newer name of
    /// ``deviceOwnerAuthenticationWithWatch``, with the same raw value.
    public static var deviceOwnerAuthenticationWithCompanion: LAPolicy { .deviceOwnerAuthenticationWithWatch }

    /// Biometry or a companion device: Apple's newer name of
    /// ``deviceOwnerAuthenticationWithBiometricsOrWatch``, with the same raw value.
    public static var deviceOwnerAuthenticationWithBiometricsOrCompanion: LAPolicy {
        .deviceOwnerAuthenticationWithBiometricsOrWatch
    }

    /// Why this policy cannot be evaluated on Linux, or nil for the one that can.
    var unavailableOnLinux: LAError.Code? {
        switch self {
        case .deviceOwnerAuthentication: nil
        case .deviceOwnerAuthenticationWithWatch: .watchNotAvailable
        case .deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthenticationWithBiometricsOrWatch,
            .deviceOwnerAuthenticationWithWristDetection:
            .biometryNotAvailable
        }
    }
}
