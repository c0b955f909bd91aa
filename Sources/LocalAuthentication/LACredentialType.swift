/// The kinds of credential a context can be given with ``LAContext/setCredential(_:type:)``,
/// with Apple's raw values.
public enum LACredentialType: Int, Sendable, Hashable {
    /// The application password of items whose access control has
    /// `.applicationPassword`: the keychain uses it instead of asking the user.
    case applicationPassword = 0
    /// A smart card's PIN. Linux has no smart-card tokens here: setting it fails.
    case smartCardPIN = -3
}
