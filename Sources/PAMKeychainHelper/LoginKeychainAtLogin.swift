import Foundation
// Whether an unlock reached the user's other processes, which the public API does not say.
import KeychainCore
import Security

/// What pam_keychain asks of the user's login keychain, through the public Keychain Services
/// calls: unlock it at login, change its password with the login password, lock it when the
/// session that unlocked it ends.
///
/// Each returns an ``Outcome`` whose status the module reads: the line it prints says what
/// happened, never with a secret in it.
enum LoginKeychainAtLogin {
    struct Outcome: Error {
        let status: Int32
        let line: String

        /// Done: unlocked, changed or locked.
        static func done(_ line: String) -> Outcome { Outcome(status: 0, line: line) }
        /// The keychain's password is not the one given: nothing changed, nothing unlocked.
        static func passwordDiffers(_ line: String) -> Outcome { Outcome(status: 10, line: line) }
        /// There is no login keychain: nothing to change or lock.
        static func noKeychain(_ line: String) -> Outcome { Outcome(status: 11, line: line) }
        /// The keychain was unlocked already: left as it is, and not the session's to lock.
        static func alreadyUnlocked(_ line: String) -> Outcome { Outcome(status: 12, line: line) }
        /// Anything else.
        static func failed(_ line: String) -> Outcome { Outcome(status: 1, line: line) }
    }

    /// The login keychain, whichever keychain is the default.
    static var keychain: SecKeychain { SecKeychain(path: "login") }

    /// Whether the login keychain's database exists. Asked of the file, not of a call that
    /// opens the keychain: opening the default keychain creates it without a password.
    static var exists: Bool {
        var status = stat()
        return lstat(keychain.path, &status) == 0
    }

    /// Unlocks the login keychain with `password`, creating it with that password when there
    /// is none and setting it on one that has no password (which rotates its keys, as any
    /// password set does). With `timeout`, the keychain then locks after that many seconds
    /// without use (0: never), as `set-keychain-settings -t` sets it.
    static func unlock(password: [UInt8], timeout: UInt32?) -> Outcome {
        let outcome = unlockOrCreate(password: password)
        // An unlock that stayed in this process, which ends now, unlocked nothing for the session.
        if outcome.status == 0 && !keychain.unlockReachesOtherProcesses {
            return .failed("\(outcome.line), but for this process only: the kernel keyring is unavailable, so the "
                           + "session's processes find the keychain locked")
        }
        guard outcome.status == 0, let timeout else { return outcome }
        var settings = SecKeychainSettings(version: UInt32(SEC_KEYCHAIN_SETTINGS_VERS1), lockOnSleep: false,
                                           useLockInterval: false, lockInterval: 0)
        var status = SecKeychainCopySettings(keychain, &settings)
        guard status == errSecSuccess else { return .failed("\(outcome.line); SecKeychainCopySettings: \(message(status))") }
        let wanted = timeout > 0
        if settings.useLockInterval.boolValue != wanted || (wanted && settings.lockInterval != timeout) {
            settings.useLockInterval = DarwinBoolean(wanted)
            settings.lockInterval = wanted ? timeout : 0
            status = SecKeychainSetSettings(keychain, &settings)
            guard status == errSecSuccess else { return .failed("\(outcome.line); SecKeychainSetSettings: \(message(status))") }
        }
        return .done("\(outcome.line), \(wanted ? "locking after \(timeout) s without use" : "with no timeout")")
    }

    private static func unlockOrCreate(password: [UInt8]) -> Outcome {
        guard !password.isEmpty else { return .failed("an empty password unlocks nothing") }
        if !exists {
            var created: SecKeychain?
            let status = password.withUnsafeBytes { bytes in
                SecKeychainCreate("login", UInt32(bytes.count), bytes.baseAddress, false, nil, &created)
            }
            if status == errSecSuccess { return .done("login keychain created with the login password") }
            // Another login made it at the same moment: unlock that one.
            guard status == errSecDuplicateKeychain else { return .failed("SecKeychainCreate: \(message(status))") }
        }
        // Unlocked already (by hand, or by another session): the session that unlocked it
        // locks it, not this one. A keychain without a password counts as locked here, so
        // that it is given the password below.
        var before: SecKeychainStatus = 0
        let unlocked = SecKeychainGetStatus(keychain, &before) == errSecSuccess && before & kSecUnlockStateStatus != 0
        // Without a password, a keychain that has none unlocks; one that has a password is
        // errSecInteractionNotAllowed, and nothing is derived from a password to tell.
        let withoutPassword = SecKeychainUnlock(keychain, 0, nil, false)
        if unlocked && withoutPassword == errSecInteractionNotAllowed {
            return .alreadyUnlocked("login keychain unlocked already; left as it is")
        }
        if withoutPassword == errSecSuccess {
            let status = password.withUnsafeBytes { bytes in
                SecKeychainChangePassword(keychain, 0, nil, UInt32(bytes.count), bytes.baseAddress)
            }
            // A password another process set meanwhile: unlock with it, below.
            if status == errSecSuccess { return .done("login keychain given the login password and unlocked") }
            guard status == errSecAuthFailed else { return .failed("SecKeychainChangePassword: \(message(status))") }
        } else if withoutPassword != errSecInteractionNotAllowed {
            return .failed("SecKeychainUnlock: \(message(withoutPassword))")
        }
        let status = password.withUnsafeBytes { bytes in
            SecKeychainUnlock(keychain, UInt32(bytes.count), bytes.baseAddress, true)
        }
        switch status {
        case errSecSuccess: return .done("login keychain unlocked")
        case errSecAuthFailed: return .passwordDiffers("the login keychain's password is not the login password; not unlocked")
        default: return .failed("SecKeychainUnlock: \(message(status))")
        }
    }

    /// Changes the login keychain's password from `old` to `new`, in one transaction (its
    /// keys rotate). A keychain without a password is given `new`. A keychain whose password
    /// is not `old` is left as it is. It is left locked when it was locked before.
    static func change(old: [UInt8], new: [UInt8]) -> Outcome {
        guard exists else { return .noKeychain("no login keychain; the next login creates it with the new password") }
        guard !new.isEmpty else { return .failed("an empty new password is not set") }
        var before: SecKeychainStatus = 0
        var status = SecKeychainGetStatus(keychain, &before)
        guard status == errSecSuccess else { return .failed("SecKeychainGetStatus: \(message(status))") }
        status = change(from: old, to: new)
        // Given no password (root changing another user's) or the wrong one, a keychain
        // that has no password is still given the new one, as the next login would.
        if status == errSecAuthFailed && !old.isEmpty { status = change(from: [], to: new) }
        switch status {
        case errSecSuccess:
            // The change leaves the keychain unlocked; it was not.
            if before & kSecUnlockStateStatus == 0 { SecKeychainLock(keychain) }
            return .done("login keychain password changed")
        case errSecAuthFailed:
            return .passwordDiffers("the login keychain's password is not the old login password; left as it is")
        default:
            return .failed("SecKeychainChangePassword: \(message(status))")
        }
    }

    private static func change(from old: [UInt8], to new: [UInt8]) -> OSStatus {
        old.withUnsafeBytes { oldBytes in
            new.withUnsafeBytes { newBytes in
                SecKeychainChangePassword(keychain, UInt32(oldBytes.count), oldBytes.baseAddress,
                                          UInt32(newBytes.count), newBytes.baseAddress)
            }
        }
    }

    /// Locks the login keychain for every process of the user.
    static func lock() -> Outcome {
        guard exists else { return .noKeychain("no login keychain") }
        let status = SecKeychainLock(keychain)
        return status == errSecSuccess ? .done("login keychain locked") : .failed("SecKeychainLock: \(message(status))")
    }

    private static func message(_ status: OSStatus) -> String {
        "\(SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus") (\(status))"
    }
}
