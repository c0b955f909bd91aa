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

    static let isLockedName = "org.freedesktop.Secret.Error.IsLocked"

    /// The keychain `name` is locked; the provider cannot show a prompt to unlock it.
    static func isLocked(_ name: String) -> BusFailure {
        BusFailure(name: isLockedName, message: "the keychain \(name) is locked: unlock it with keychainctl unlock-keychain \(name)")
    }

    /// The keychain `name` is locked and nothing can ask for its password (``PasswordAsker``).
    static func noPrompter(_ name: String) -> BusFailure {
        BusFailure(name: isLockedName,
                   message: "the keychain \(name) is locked and \(PasswordAsker.unavailableReason()) to ask for its "
                       + "password: unlock it with keychainctl unlock-keychain \(name)")
    }

    /// Nothing can ask for a new collection's password (``PasswordAsker``).
    static var noPrompterForNewPassword: BusFailure {
        BusFailure(name: "org.freedesktop.DBus.Error.NotSupported",
                   message: "\(PasswordAsker.unavailableReason()) to ask for the new collection's password: create the "
                       + "keychain with keychainctl create-keychain instead")
    }

    static func invalidArguments(_ message: String) -> BusFailure {
        BusFailure(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    static func notSupported(_ message: String) -> BusFailure {
        BusFailure(name: "org.freedesktop.DBus.Error.NotSupported", message: message)
    }

    static func accessDenied(_ message: String) -> BusFailure {
        BusFailure(name: "org.freedesktop.DBus.Error.AccessDenied", message: message)
    }

    /// A reply would pass what D-Bus carries or what the user allowed (``ReplyLimit``).
    static func limitsExceeded(_ message: String) -> BusFailure {
        BusFailure(name: "org.freedesktop.DBus.Error.LimitsExceeded", message: message)
    }

    static func failed(_ message: String) -> BusFailure {
        BusFailure(name: "org.freedesktop.DBus.Error.Failed", message: message)
    }
}
