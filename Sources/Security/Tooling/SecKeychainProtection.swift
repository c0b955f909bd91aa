@_implementationOnly import KeychainCore

/// What protects a keychain's items at rest, for `keychainctl show-keychain-info`: its
/// password, and where its device key is kept (which wraps the index, class D, and every
/// class of a keychain without a password).
package struct SecKeychainProtection: Sendable, Hashable {
    /// Whether classes A and C are wrapped by the keychain's password.
    package let hasPassword: Bool
    /// Whether the device key is sealed to this machine's TPM, rather than kept in a file.
    package let deviceKeyIsSealedToTPM: Bool
}

extension SecKeychain {
    /// What protects the keychain's items at rest. The keychain is opened first (which
    /// unseals its device key, once per boot, where it is sealed to the TPM), so a keychain
    /// that does not open fails here with the reason.
    package func protection() throws(SecKeychainFailure) -> SecKeychainProtection {
        do {
            let store = try store()
            return SecKeychainProtection(hasPassword: try store.hasPassword,
                                         deviceKeyIsSealedToTPM: try store.deviceKeyProtection == .tpm)
        } catch {
            throw SecKeychainFailure(error)
        }
    }
}
