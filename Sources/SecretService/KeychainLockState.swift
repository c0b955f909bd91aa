import Foundation
import Security

/// A keychain's lock, which every process of the user shares (SecKeychainLock and
/// SecKeychainUnlock keep it in the kernel keyring): the provider reports it, locks it on
/// Lock and unlocks it with the password a prompt asks for. Each collection has its own.
extension KeychainItems {
    /// The keychain's name, for prompts.
    var keychainName: String { name }

    /// Whether the keychain is locked now. The default keychain, not made yet, is created
    /// unlocked, as the first use of the login keychain does.
    func isLocked() throws(BusFailure) -> Bool {
        var status: SecKeychainStatus = 0
        let result = call { SecKeychainGetStatus(keychain, &status) }
        if result == errSecNoSuchKeychain { throw .noSuchObject(SecretObject.collectionPath(name)) }
        guard result == errSecSuccess else { throw .failed("cannot tell whether the keychain \(name) is locked (\(result))") }
        return status & kSecUnlockStateStatus == 0
    }

    /// Locks the keychain for every process of the user.
    func lock() throws(BusFailure) {
        let result = call { SecKeychainLock(keychain) }
        if result == errSecNoSuchKeychain { throw .noSuchObject(SecretObject.collectionPath(name)) }
        guard result == errSecSuccess else { throw .failed("cannot lock the keychain \(name) (\(result))") }
    }

    /// Unlocks a keychain that has no password; false when it has one, which a prompt must ask for.
    func unlockWithoutPassword() throws(BusFailure) -> Bool {
        let result = call { SecKeychainUnlock(keychain, 0, nil, false) }
        if result == errSecInteractionNotAllowed { return false }
        if result == errSecNoSuchKeychain { throw .noSuchObject(SecretObject.collectionPath(name)) }
        guard result == errSecSuccess else { throw .failed("cannot unlock the keychain \(name) (\(result))") }
        return true
    }

    /// Unlocks the keychain with `password`.
    func unlock(password: [UInt8]) -> PasswordCheck {
        let result = password.withUnsafeBytes { bytes in
            call { SecKeychainUnlock(keychain, UInt32(bytes.count), bytes.baseAddress, true) }
        }
        switch result {
        case errSecSuccess: return .accepted
        case errSecAuthFailed: return .wrong
        default: return .failed("the keychain \(name) could not be unlocked (OSStatus \(result))")
        }
    }
}
