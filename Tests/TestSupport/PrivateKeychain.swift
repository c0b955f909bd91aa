#if os(Linux)
import Foundation
import Security

/// A private keychain in a fresh scratch folder, so that tests never touch the user's
/// keychain and can run in parallel; the Security and Keychain suites both use it.
///
/// The `SecItem` calls made inside `run` go to this keychain through `KeychainEnvironment`,
/// a task-local: it holds for the closure and the child tasks it starts, not for other
/// threads. The Keychain module's async variants carry it to their background queue
/// themselves, so async tests run inside the async `run`.
public struct PrivateKeychain: Sendable {
    /// Which keychain, and which access groups the caller holds.
    public let environment: KeychainEnvironment

    /// The folder of the keychain's files: `keychains` inside ``dataHome``, as under a
    /// user's `$XDG_DATA_HOME`.
    public var directory: URL { environment.directory }

    /// What a program run on this keychain takes as `XDG_DATA_HOME`.
    public var dataHome: URL { directory.deletingLastPathComponent() }

    public init(accessGroups: [String] = ["com.example.app", "com.example.shared"], name: String = "login") {
        let directory = TestScratch.folder("keychain").appendingPathComponent("keychains")
        environment = KeychainEnvironment(directory: directory, keychainName: name, accessGroups: accessGroups)
    }

    private init(environment: KeychainEnvironment) {
        self.environment = environment
    }

    /// The same keychain seen by a caller that holds other access groups.
    public func asCaller(_ accessGroups: [String]) -> PrivateKeychain {
        PrivateKeychain(environment: KeychainEnvironment(
            directory: directory, keychainName: environment.keychainName, accessGroups: accessGroups))
    }

    /// Runs `body` with its `SecItem` calls going to this keychain. `rethrows`, so a closure
    /// that cannot throw needs no `try`; a closure made only of `#expect(try ...)` is not
    /// inferred as throwing, so it says `() throws in`.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try KeychainEnvironment.withValue(environment, operation: body)
    }

    /// Runs an async `body` with its `SecItem` calls going to this keychain.
    public func run<T>(_ body: () async throws -> T) async rethrows -> T {
        try await KeychainEnvironment.withValue(environment, operation: body)
    }

    /// Every file of the keychain folder, for checks on what is stored at rest.
    public func files() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
    }

    // One Keychain Services call in this keychain, as code written without the Swift API
    // makes it.

    public func add(_ attributes: [String: Any]) -> OSStatus {
        run { SecItemAdd(attributes as CFDictionary, nil) }
    }

    public func add(_ attributes: [String: Any], result: inout CFTypeRef?) -> OSStatus {
        run { SecItemAdd(attributes as CFDictionary, &result) }
    }

    public func copyMatching(_ query: [String: Any]) -> (status: OSStatus, result: CFTypeRef?) {
        var result: CFTypeRef?
        let status = run { SecItemCopyMatching(query as CFDictionary, &result) }
        return (status, result)
    }

    public func update(_ query: [String: Any], _ changes: [String: Any]) -> OSStatus {
        run { SecItemUpdate(query as CFDictionary, changes as CFDictionary) }
    }

    public func delete(_ query: [String: Any]) -> OSStatus {
        run { SecItemDelete(query as CFDictionary) }
    }

    // What the one item a query matches holds, to check what was stored.

    /// The attributes of the one item `query` matches, or nil with the status.
    public func attributes(_ query: [String: Any]) -> (status: OSStatus, attributes: [String: Any]?) {
        let found = copyMatching(query.with([kSecReturnAttributes as String: true]))
        return (found.status, found.result as? [String: Any])
    }

    /// The secret of the one item `query` matches.
    public func secret(_ query: [String: Any]) -> Data? {
        copyMatching(query.with([kSecReturnData as String: true])).result as? Data
    }

    /// The persistent reference of the one item `query` matches.
    public func persistentReference(_ query: [String: Any]) -> Data? {
        copyMatching(query.with([kSecReturnPersistentRef as String: true])).result as? Data
    }

    /// How many items `query` matches (0 when errSecItemNotFound, -1 for a result that is
    /// not a list).
    public func count(_ query: [String: Any]) -> Int {
        let found = copyMatching(query.with([
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnPersistentRef as String: true,
        ]))
        guard found.status == errSecSuccess else { return 0 }
        return (found.result as? [Any])?.count ?? -1
    }
}

/// The Keychain Services query for a generic password.
public func genericPassword(account: String = "alice", service: String = "example.com") -> [String: Any] {
    [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrAccount as String: account,
        kSecAttrService as String: service,
    ]
}

extension Dictionary where Key == String, Value == Any {
    /// A copy with more entries.
    public func with(_ more: [String: Any]) -> [String: Any] {
        merging(more) { _, new in new }
    }
}
#endif
