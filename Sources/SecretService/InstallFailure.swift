/// Why `keychain-secret-service --install` wrote nothing: a message for the user.
public struct InstallFailure: Error, Sendable {
    public let message: String

    init(_ message: String) {
        self.message = message
    }
}
