import Foundation
import Security

/// The keychain items of one service (generic passwords) or one server (internet
/// passwords), read and written by key.
///
/// ```swift
/// let keychain = Keychain(service: "com.example.api")
/// try keychain.set("s3cr3t", forKey: "deploy-bot")
/// let token = try keychain.string(forKey: "deploy-bot")    // "s3cr3t", or nil if absent
/// ```
///
/// A key is the item's account (`kSecAttrAccount`). A `Keychain` is a value: its
/// ``options`` can be changed in place, and modifiers such as ``accessibility(_:)`` return a
/// copy with one option changed. It is `Sendable`, and every method may be called from any
/// thread: each is one or a few `SecItem` calls, which Keychain Services makes atomic.
/// ``async`` gives the same calls as `async` functions, which run on a background queue so
/// that a wait (a busy database, a lock) never blocks the caller's thread.
///
/// It uses only the public Keychain Services API, so the same code builds against Apple's
/// Security framework and against this package's `Security` module on Linux.
public struct Keychain: Sendable, Hashable {
    /// The class and class attributes that name this keychain's items.
    let location: ItemLocation

    /// The access group items are saved to, and the only one searched; nil saves to the
    /// process's default group and searches all of its groups.
    public var accessGroup: String?

    /// The keychain file the items are in; nil for the default keychain.
    public var file: KeychainFile?

    /// How items are written.
    public var options: KeychainOptions

    /// A keychain of generic passwords (`kSecClassGenericPassword`) of one service.
    ///
    /// - Parameters:
    ///   - service: The service (`kSecAttrService`), often a reverse-DNS name.
    ///   - accessGroup: The access group to use; nil for the process's default group on
    ///     save and all of its groups on search.
    ///   - file: The keychain file to use (macOS and Linux); nil for the default keychain.
    ///   - options: How items are written.
    public init(service: String, accessGroup: String? = nil, file: KeychainFile? = nil,
                options: KeychainOptions = KeychainOptions()) {
        self.init(location: .genericPassword(service: service), accessGroup: accessGroup, file: file, options: options)
    }

    /// A keychain of internet passwords (`kSecClassInternetPassword`) of one server, protocol,
    /// authentication type, port and path.
    ///
    /// All five take part in every search, so two `Keychain`s that differ in any of them
    /// see different items. A nil port or path is the same as port 0 or an empty path, as
    /// in Keychain Services.
    ///
    /// - Parameters:
    ///   - server: The server's host name (`kSecAttrServer`).
    ///   - protocol: The protocol (`kSecAttrProtocol`).
    ///   - authenticationType: The authentication type (`kSecAttrAuthenticationType`).
    ///   - port: The port (`kSecAttrPort`), 0...65535; any other value makes every
    ///     operation throw `errSecParam`.
    ///   - path: The path (`kSecAttrPath`).
    ///   - accessGroup: As for ``init(service:accessGroup:file:options:)``.
    ///   - file: As for ``init(service:accessGroup:file:options:)``.
    ///   - options: How items are written.
    public init(
        server: String,
        protocol: InternetProtocol,
        authenticationType: AuthenticationType = .default,
        port: Int? = nil,
        path: String? = nil,
        accessGroup: String? = nil,
        file: KeychainFile? = nil,
        options: KeychainOptions = KeychainOptions()
    ) {
        let internetPassword = InternetPasswordLocation(
            server: server, protocol: `protocol`, authenticationType: authenticationType,
            port: port ?? 0, path: path ?? "")
        self.init(location: .internetPassword(internetPassword), accessGroup: accessGroup, file: file, options: options)
    }

    init(location: ItemLocation, accessGroup: String?, file: KeychainFile?, options: KeychainOptions) {
        self.location = location
        self.accessGroup = accessGroup
        self.file = file
        self.options = options
    }

    /// The service of a generic-password keychain; nil for internet passwords.
    public var service: String? {
        if case .genericPassword(let service) = location { return service }
        return nil
    }

    /// The server of an internet-password keychain; nil for generic passwords.
    public var server: String? {
        if case .internetPassword(let internetPassword) = location { return internetPassword.server }
        return nil
    }

    // MARK: - Options

    /// A copy that writes items with other options.
    public func options(_ options: KeychainOptions) -> Keychain {
        changing { $0.options = options }
    }

    /// A copy that saves items with this accessibility.
    public func accessibility(_ accessibility: Accessibility) -> Keychain {
        changing { $0.options.accessibility = accessibility }
    }

    /// A copy that reads and writes synchronizable items (true) or the others (false).
    public func synchronizable(_ synchronizable: Bool) -> Keychain {
        changing { $0.options.synchronizable = synchronizable }
    }

    /// A copy that saves items with this label (`kSecAttrLabel`).
    public func label(_ label: String?) -> Keychain {
        changing { $0.options.label = label }
    }

    /// A copy that saves items with this comment (`kSecAttrComment`).
    public func comment(_ comment: String?) -> Keychain {
        changing { $0.options.comment = comment }
    }

    /// A copy that saves items with these extra attributes, replacing any set before.
    /// See ``KeychainOptions/attributes`` for the keys allowed.
    public func attributes(_ attributes: [String: AttributeValue]) -> Keychain {
        changing { $0.options.attributes = attributes }
    }

    private func changing(_ change: (inout Keychain) -> Void) -> Keychain {
        var copy = self
        change(&copy)
        return copy
    }
}
