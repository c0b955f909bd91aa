import Foundation
import Security

/// What differs between the platforms this module builds for, in one place: which keychain
/// a query goes to, and how a call on another thread keeps the caller's keychain.
enum Platform {
    /// Adds to a query the keys that pick its keychain: `kSecUseKeychain` for a file, else,
    /// on macOS, `kSecUseDataProtectionKeychain`, the keychain of iOS that Apple recommends
    /// (without it macOS uses the legacy file-based keychain).
    static func target(_ query: inout [String: Any], file: KeychainFile?) throws(KeychainError) {
        #if os(macOS) || os(Linux)
        if let file {
            var keychain: SecKeychain?
            let status = SecKeychainOpen(file.path, &keychain)
            guard status == errSecSuccess, let keychain else {
                throw KeychainError(status: status == errSecSuccess ? errSecNoSuchKeychain : status,
                                    reason: "the keychain file cannot be opened")
            }
            query[kSecUseKeychain as String] = keychain
            return
        }
        #else
        if file != nil {
            throw KeychainError(.param, reason: "keychain files exist only on macOS and Linux")
        }
        #endif
        #if os(macOS)
        query[kSecUseDataProtectionKeychain as String] = true
        #endif
    }

    /// The keys ``target(_:file:)`` may add, which a follow-up query on the same items
    /// (by persistent reference) must carry over.
    static var targetKeys: [String] {
        #if os(macOS) || os(Linux)
        [kSecUseKeychain as String, kSecUseDataProtectionKeychain as String]
        #else
        [kSecUseDataProtectionKeychain as String]
        #endif
    }

    /// The part of `query` that picks its keychain.
    static func target(of query: [String: Any]) -> [String: Any] {
        query.filter { targetKeys.contains($0.key) }
    }

    /// `body`, made to run on another thread with the caller's keychain.
    ///
    /// On Linux the `SecItem` functions read their default keychain and the caller's access
    /// groups from a task-local (`KeychainEnvironment`), which does not cross to a dispatch
    /// queue; carrying it over makes an async call act as its synchronous twin would.
    static func keepingCallersKeychain<Value>(
        _ body: @escaping @Sendable () -> Value
    ) -> @Sendable () -> Value {
        #if os(Linux)
        let environment = KeychainEnvironment.current
        return { KeychainEnvironment.withValue(environment, operation: body) }
        #else
        return body
        #endif
    }
}
