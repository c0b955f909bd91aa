import Foundation
import KeychainCore

/// Linux only: which keychain the `SecItem` functions use and which access groups the
/// caller holds.
///
/// By default that is the `login` keychain under `$XDG_DATA_HOME/keychains` (or
/// `~/.local/share/keychains`) and the groups of this process (see ``accessGroups``), read
/// once when first needed. Tests and tools can run code against another keychain or as
/// another identity with ``withValue(_:operation:)-swift.type.method``; the change holds for
/// the operation and the tasks it creates, not for other threads.
public struct KeychainEnvironment: Sendable, Hashable {
    /// The folder that holds the keychain database.
    public var directory: URL
    /// The keychain's name; its database is `<name>.keychain-db`.
    public var keychainName: String
    /// The access groups the caller holds; the first is the default for new items.
    ///
    /// For the process they come from `KEYCHAIN_ACCESS_GROUPS` (comma-separated), else
    /// from `keychain-access-groups` in `<executable>.entitlements`, else from the bundle
    /// identifier or the executable's name.
    public var accessGroups: [String]

    public init(directory: URL, keychainName: String = "login", accessGroups: [String]) {
        self.directory = directory
        self.keychainName = keychainName
        self.accessGroups = accessGroups
    }

    /// The environment of this process.
    public static let process = KeychainEnvironment(
        directory: KeychainFiles.defaultDirectory(),
        keychainName: "login",
        accessGroups: CallerIdentity.ofCurrentProcess().accessGroups)

    @TaskLocal private static var override: KeychainEnvironment?

    /// The environment the `SecItem` functions use now.
    public static var current: KeychainEnvironment { override ?? process }

    /// Runs `operation` with `SecItem` calls going to `environment`.
    public static func withValue<Result>(
        _ environment: KeychainEnvironment, operation: () throws -> Result
    ) rethrows -> Result {
        try $override.withValue(environment, operation: operation)
    }

    /// Runs an async `operation` with `SecItem` calls going to `environment`.
    public static func withValue<Result>(
        _ environment: KeychainEnvironment, operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $override.withValue(environment, operation: operation)
    }

    var files: KeychainFiles { KeychainFiles(directory: directory, name: keychainName) }
    var caller: CallerIdentity { CallerIdentity(accessGroups: accessGroups) }
}
