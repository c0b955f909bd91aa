/// Why a Secret Service call failed: a D-Bus error name the client understands and a message
/// for its user. Messages name objects and limits, never a secret.
struct BusFailure: Error, Sendable {
    let name: String
    let message: String

    /// The object path names no item, collection or session of this provider.
    static func noSuchObject(_ path: String) -> BusFailure {
        BusFailure(name: "org.freedesktop.Secret.Error.NoSuchObject", message: "no such object: \(path)")
    }

    /// The session path is not an open session of the caller.
    static func noSession(_ path: String) -> BusFailure {
        BusFailure(name: "org.freedesktop.Secret.Error.NoSession", message: "no open session of this client: \(path)")
    }

    /// The keychain is locked; the provider cannot show a prompt to unlock it.
    static let isLocked = BusFailure(
        name: "org.freedesktop.Secret.Error.IsLocked",
        message: "the keychain is locked: unlock it with keychainctl unlock-keychain")

    /// The keychain is locked and nothing on the provider's PATH can ask for its password.
    static let noPrompter = BusFailure(
        name: "org.freedesktop.Secret.Error.IsLocked",
        message: "the keychain is locked and neither pinentry nor systemd-ask-password is on the PATH of "
            + "keychain-secret-service to ask for its password: unlock it with keychainctl unlock-keychain")

    static func invalidArguments(_ message: String) -> BusFailure {
        BusFailure(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    static func notSupported(_ message: String) -> BusFailure {
        BusFailure(name: "org.freedesktop.DBus.Error.NotSupported", message: message)
    }

    static func accessDenied(_ message: String) -> BusFailure {
        BusFailure(name: "org.freedesktop.DBus.Error.AccessDenied", message: message)
    }

    static func failed(_ message: String) -> BusFailure {
        BusFailure(name: "org.freedesktop.DBus.Error.Failed", message: message)
    }
}
