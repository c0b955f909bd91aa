import Crypto
import Foundation
import GRDB

/// Keychains with passwords, and their lock state: what `SecKeychainCreate`,
/// `SecKeychainUnlock`, `SecKeychainLock`, `SecKeychainChangePassword` and the settings
/// calls do, in typed form.
extension KeychainStore {
    /// Whether class A is open: the keychain is unlocked.
    package var isUnlocked: Bool { classKeys.isUnlocked }

    /// Whether this process's unlock of the keychain reaches the user's other processes
    /// (through the kernel keyring), rather than lasting for this process only.
    package var unlockReachesOtherProcesses: Bool { classKeys.unlockReachesOtherProcesses }

    /// Whether an unlock made now would reach the user's other processes: false where the
    /// kernel keyring is refused (a container's seccomp policy) or turned off.
    package var unlocksReachOtherProcesses: Bool { classKeys.unlocksReachOtherProcesses }

    /// The scrypt parameters for application passwords: the keychain password's, so that a
    /// guess costs what a guess at that password costs, or the standard ones for a keychain
    /// without a password. The salt is the caller's to draw.
    package func applicationPasswordKDF() throws(KeychainError) -> PasswordKDF {
        try Self.oneStatement(database, during: "read the keychain's state") { db in
            try KeybagTable(db: db, files: files).passwordKDF()
        } ?? .standard()
    }

    /// How the device key is kept, which wraps the index key, class D, and every class of a
    /// keychain without a password: in a file, or sealed to this machine's TPM.
    package var deviceKeyProtection: DeviceKeyProtection {
        get throws(KeychainError) {
            guard let protection = try DeviceKeyFile.protection(files) else {
                throw .notAvailable("the device key \(files.deviceKey.lastPathComponent) is missing")
            }
            return protection
        }
    }

    /// Whether the keychain has a password.
    package var hasPassword: Bool {
        get throws(KeychainError) {
            try Self.oneStatement(database, during: "read the keychain's state") { db in
                try KeybagTable(db: db, files: files).passwordKDF() != nil
            }
        }
    }

    /// Unlocks the keychain for every process of this user until it locks again: by
    /// ``lock()``, by its auto-lock settings, or at reboot. errSecAuthFailed for a wrong
    /// password (a keychain without a password takes nil or an empty one).
    package func unlock(password: Data?) throws(KeychainError) {
        let opened = try Self.oneStatement(database, during: "unlock") { db in
            let table = KeybagTable(db: db, files: files)
            return ClassKeyAvailability.Unlock(keys: DeferredKeys(try table.openLockedClasses(password: password)),
                                               settings: try table.settings(), epoch: try table.keyEpoch())
        }
        classKeys.publish(opened)
        indexRowsOfOlderFormats()
    }

    /// Locks the keychain, for every process: class A items give
    /// errSecInteractionNotAllowed until it is unlocked.
    package func lock() {
        classKeys.lock()
    }

    /// Sets (from nil), changes, or removes (to nil or empty) the keychain's password.
    ///
    /// The class A and C keys are replaced by new random ones and every item of those
    /// classes is sealed again under them, in one transaction: a kill at any moment leaves
    /// the old password and keys or the new ones, whole. So a keybag wrapped under an old
    /// password (in a backup, say) opens nothing added or changed since, and once this
    /// returns no file holds the old keybag, the old password's parameters or the items as
    /// they were sealed before (see ``GroupCommit/scrub(_:patience:databasePath:restartingTheLog:)``). It costs a reseal per item of
    /// those classes (Benchmarks/README.md has a measure).
    ///
    /// errSecAuthFailed when `old` is wrong, and nothing changes. Removing the password
    /// deletes the `akpu` items, which need one. The keychain is unlocked after.
    package func changePassword(from old: Data?, to new: Data?, kdf: PasswordKDF = .standard()) throws(KeychainError) {
        // Scrubbed below, once the new keys are published: other processes' calls wait for
        // them, and a scrub may wait on those processes' reads.
        let (opened, isPasswordless) = try write(during: "change the password", supersedes: false) { db in
            let table = KeybagTable(db: db, files: files)
            let oldKeys = try table.openLockedClasses(password: old)
            let newKDF = (new?.isEmpty ?? true) ? nil : kdf
            let passwordKey = try newKDF.map { kdf throws(KeychainError) in try kdf.deriveKey(from: new ?? Data()) }
            if newKDF == nil {
                try db.execute(sql: "DELETE FROM item WHERE protection = ?",
                               arguments: [Accessibility.whenPasscodeSetThisDeviceOnly.rawValue])
            }
            let newKeys = try table.storeNewKeys(named: Accessibility.lockedClasses.map(\.rawValue), passwordKey: passwordKey,
                                                 deviceKey: passwordKey == nil ? table.deviceKey() : nil)
            try ItemResealer(db: db, oldKeys: oldKeys, newKeys: newKeys).resealAll()
            try table.setPasswordKDF(newKDF)
            let epoch = UInt64.random(in: 1...UInt64.max)
            try table.setKeyEpoch(epoch)
            // A ThisDeviceOnly key bound to another machine did not open: its items stay
            // unreadable here, under a key no one has, and its class gets a working key.
            return (ClassKeyAvailability.Unlock(keys: DeferredKeys(newKeys), settings: try table.settings(), epoch: epoch),
                    newKDF == nil)
        }
        classKeys.setFirstUnlock(isPasswordless ? opened : nil)
        classKeys.publish(opened)
        // The change is committed: a failure to scrub now is logged, and left to the next write.
        do {
            try write(during: "empty the log after a password change", supersedes: true) { _ in }
        } catch {
            keychainLogger.warning("the log was not emptied after a password change", metadata: ["reason": "\(error)"])
        }
    }

    /// When the keychain locks by itself.
    package func settings() throws(KeychainError) -> KeychainSettings {
        try Self.oneStatement(database, during: "read the settings") { db in
            try KeybagTable(db: db, files: files).settings()
        }
    }

    /// Changes when the keychain locks by itself; an open session takes the new settings
    /// at once, in every process.
    package func setSettings(_ settings: KeychainSettings) throws(KeychainError) {
        try write(during: "change the settings", supersedes: false) { db in
            try KeybagTable(db: db, files: files).setSettings(settings)
        }
        classKeys.apply(settings)
    }

    /// Closes classes A and C as a reboot would. Only for tests (package access), which cannot reboot.
    package func forgetUnlocksAsAtReboot() {
        classKeys.forgetSinceBoot()
    }

    /// Forgets the unlocks of every keychain this process used, for all processes. Only for
    /// test processes, at exit: they make hundreds of keychains, whose unlocks would stay in
    /// the user's kernel keyring until reboot.
    package static func forgetUnlocksOfKeychainsUsedByThisProcess() {
        UnlockedKeyCache.shared.removeEverythingUsed()
        SessionGeneration.removeEveryFileUsed()
    }

    /// errSecAuthFailed for an `akpu` item in a keychain without a password (`akpu` needs
    /// one, as it needs a passcode on iOS), as iOS
    /// fails such an item on a device without a passcode. Asked in the transaction that
    /// stores the item: the connection runs one operation at a time, so a closure that holds
    /// it cannot ask it for ``hasPassword``.
    func requirePassword(for accessibility: Accessibility, in db: Database) throws {
        guard accessibility == .whenPasscodeSetThisDeviceOnly,
              try KeybagTable(db: db, files: files).passwordKDF() == nil else { return }
        throw KeychainError.authFailed
    }
}
