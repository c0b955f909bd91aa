import Foundation
import Keychain
import Security
import Testing
import TestSupport

/// A private keychain in a fresh temporary folder, so that tests never touch the user's
/// keychain and can run in parallel.
///
/// On Linux the `SecItem` calls made inside ``run(_:)`` go to this keychain through
/// `KeychainEnvironment`, a task-local: it holds for the closure and the child tasks it
/// starts, not for other threads. The module's async variants carry it to their background
/// queue themselves (`BackgroundCalls`), so async tests run inside ``run(_:)`` too, and
/// `AsyncTests` checks that they land here and nowhere else.
struct PrivateKeychain {
    let environment: KeychainEnvironment

    init(accessGroups: [String] = ["com.example.app", "com.example.shared"]) {
        let directory = TestScratch.folder("keychain")
        environment = KeychainEnvironment(directory: directory, accessGroups: accessGroups)
    }

    private init(environment: KeychainEnvironment) {
        self.environment = environment
    }

    /// The same keychain seen by a caller that holds other access groups.
    func asCaller(_ accessGroups: [String]) -> PrivateKeychain {
        PrivateKeychain(environment: KeychainEnvironment(
            directory: environment.directory, keychainName: environment.keychainName, accessGroups: accessGroups))
    }

    // `throws` rather than `rethrows`, so that closures made only of `#expect(try ...)`
    // are throwing closures as well.
    func run<T>(_ body: () throws -> T) throws -> T {
        try KeychainEnvironment.withValue(environment, operation: body)
    }

    func run<T>(_ body: () async throws -> T) async throws -> T {
        try await KeychainEnvironment.withValue(environment, operation: body)
    }

    /// One item's attributes through Keychain Services directly, to check what was stored.
    func storedAttributes(_ query: [String: Any]) -> [String: Any]? {
        var result: CFTypeRef?
        var query = query
        query[kSecReturnAttributes as String] = true
        let status = KeychainEnvironment.withValue(environment) { SecItemCopyMatching(query as CFDictionary, &result) }
        return status == errSecSuccess ? result as? [String: Any] : nil
    }

    /// The persistent reference of the one item a query matches.
    func persistentReference(_ query: [String: Any]) -> Data? {
        var result: CFTypeRef?
        var query = query
        query[kSecReturnPersistentRef as String] = true
        let status = KeychainEnvironment.withValue(environment) { SecItemCopyMatching(query as CFDictionary, &result) }
        return status == errSecSuccess ? result as? Data : nil
    }

    /// Adds an item through Keychain Services directly, as code written without this module would.
    @discardableResult
    func addRaw(_ attributes: [String: Any]) -> OSStatus {
        KeychainEnvironment.withValue(environment) { SecItemAdd(attributes as CFDictionary, nil) }
    }
}

/// The Keychain Services query for a generic password.
func genericPasswordQuery(service: String, account: String) -> [String: Any] {
    [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account,
    ]
}

/// The KeychainError a throwing call threw, or nil (and a recorded issue) if it did not.
func keychainError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> KeychainError? {
    #expect(throws: KeychainError.self, sourceLocation: sourceLocation) { try body() }
}
