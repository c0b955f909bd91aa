/// Why the provider could not start or stopped serving: a message for the user.
public struct StartFailure: Error, Sendable {
    public let message: String

    init(_ message: String) {
        self.message = message
    }
}
