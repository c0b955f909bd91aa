import Foundation
import Security
import Testing
import TestSupport

/// A private keychain in a fresh temporary folder, with the access groups a test chooses.
/// `run` sends the SecItem calls of its closure there, so tests can run in parallel.
struct TestKeychain {
    let directory: URL
    let environment: KeychainEnvironment

    init(accessGroups: [String] = ["com.example.app", "com.example.shared"], name: String = "login") {
        directory = TestScratch.folder("keychain").appendingPathComponent("keychains")
        environment = KeychainEnvironment(directory: directory, keychainName: name, accessGroups: accessGroups)
    }

    /// The same keychain seen by a caller with other access groups.
    func asCaller(_ accessGroups: [String]) -> TestKeychain {
        TestKeychain(directory: directory, environment: KeychainEnvironment(
            directory: directory, keychainName: environment.keychainName, accessGroups: accessGroups))
    }

    private init(directory: URL, environment: KeychainEnvironment) {
        self.directory = directory
        self.environment = environment
    }

    func run<T>(_ body: () throws -> T) rethrows -> T {
        try KeychainEnvironment.withValue(environment, operation: body)
    }

    // Shorthands that run one call in this keychain.
    func add(_ attributes: [String: Any]) -> OSStatus {
        run { SecItemAdd(attributes as CFDictionary, nil) }
    }

    func add(_ attributes: [String: Any], result: inout CFTypeRef?) -> OSStatus {
        run { SecItemAdd(attributes as CFDictionary, &result) }
    }

    func copyMatching(_ query: [String: Any]) -> (status: OSStatus, result: CFTypeRef?) {
        var result: CFTypeRef?
        let status = run { SecItemCopyMatching(query as CFDictionary, &result) }
        return (status, result)
    }

    func update(_ query: [String: Any], _ changes: [String: Any]) -> OSStatus {
        run { SecItemUpdate(query as CFDictionary, changes as CFDictionary) }
    }

    func delete(_ query: [String: Any]) -> OSStatus {
        run { SecItemDelete(query as CFDictionary) }
    }

    /// Every file of the keychain folder, for checks on what is stored at rest.
    func files() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
    }
}

/// A generic-password query for an account and service.
func genericPassword(account: String = "alice", service: String = "example.com") -> [String: Any] {
    [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrAccount as String: account,
        kSecAttrService as String: service,
    ]
}

extension Dictionary where Key == String, Value == Any {
    /// A copy with more entries.
    func with(_ more: [String: Any]) -> [String: Any] {
        merging(more) { _, new in new }
    }
}
