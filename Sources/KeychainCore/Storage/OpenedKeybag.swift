import Crypto
import Foundation
import GRDB

/// What opening a keychain yields: the keys that need no unlock, and the keychain's id.
struct OpenedKeybag {
    let indexKey: SymmetricKey
    let alwaysKeys: DeferredKeys
    /// For a keychain without a password, the keys and settings of its first unlock; for
    /// one with a password, those its password file opens (see ``KeychainPasswordFile``).
    let firstUnlock: ClassKeyAvailability.Unlock?
    /// For a keychain this open created with a password: its unlocked class A and C keys.
    let created: ClassKeyAvailability.Unlock?
    /// Names this keychain in the unlock cache: a random id stored in the database, hashed
    /// with the database's path, so that a copy of the folder is another keychain.
    let keychainID: String

    /// Reads the keybag, creating it for a new keychain and binding the ThisDeviceOnly keys
    /// of a keychain written before they were bound to the machine.
    ///
    /// With `writing`, `db` is in a write transaction and whatever is missing is written.
    /// Without it, `db` is in a read transaction and nothing is written: a keychain that
    /// lacks its id, its keybag or a key's binding to this machine gives nil, and the open
    /// loads it again in a write transaction. So a find in a whole keychain never takes the
    /// database's write lock from other processes.
    ///
    /// With `creating`, the keychain must be new (else errSecDuplicateKeychain), and its
    /// keybag, password and settings are written in this one transaction: the keys a
    /// password protects are never wrapped by anything weaker, not even for a moment.
    ///
    /// With `mustExist`, a keybag that was never written (a creation cut short after the
    /// tables were made) is errSecNoSuchKeychain: the keychain was never whole.
    static func load(_ db: Database, files: KeychainFiles, creating: KeychainCreation? = nil,
                     mustExist: Bool = false, writing: Bool) throws -> OpenedKeybag? {
        let table = KeybagTable(db: db, files: files)
        if writing {
            try db.execute(sql: "INSERT OR IGNORE INTO meta (key, value) VALUES ('id', ?)",
                           arguments: [Data(RandomBytes.draw(16))])
        }
        guard let id = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'id'") else {
            if writing { throw KeychainError.notAvailable("the keychain's id was not stored") }
            return nil
        }
        var entries = try table.entries()
        if creating != nil, !entries.isEmpty { throw KeychainError.duplicateKeychain }
        if mustExist, entries.isEmpty { throw KeychainError.noSuchKeychain }
        let needsBinding = entries.contains { name, entry in
            entry.wrapping == .device && Keybag.wrapping(of: name, withPassword: false) == .deviceAndMachine
        }
        if !writing, creating != nil || entries.isEmpty || needsBinding { return nil }
        let deviceKey = try table.deviceKey(create: entries.isEmpty)
        var created: ClassKeyAvailability.Unlock?
        if entries.isEmpty {
            let password = (creating?.password).flatMap { $0.isEmpty ? nil : $0 }
            let passwordKey = try password.map { password throws(KeychainError) in
                try (creating?.kdf ?? .standard()).deriveKey(from: password)
            }
            let lockedKeys = try table.storeNewKeys(named: Keybag.keyNames, passwordKey: passwordKey, deviceKey: deviceKey)
                .filter { Accessibility.lockedClasses.contains($0.key) }
            if let creating {
                if password != nil { try table.setPasswordKDF(creating.kdf) }
                try table.setSettings(creating.settings)
                let epoch = UInt64.random(in: 1...UInt64.max)
                try table.setKeyEpoch(epoch)
                created = .init(keys: DeferredKeys(lockedKeys), settings: creating.settings, epoch: epoch)
            }
            entries = try table.entries()
        }
        for (name, entry) in entries where entry.wrapping == .device
            && Keybag.wrapping(of: name, withPassword: false) == .deviceAndMachine {
            let key = try table.open(entry, named: name, base: deviceKey)
            try table.store(key, named: name, wrapping: .deviceAndMachine, base: deviceKey)
            entries[name]?.wrapping = .deviceAndMachine
        }
        guard let indexEntry = entries[Keybag.indexKeyName] else {
            throw KeychainError.notAvailable("the keybag has no index key")
        }
        let indexKey: SymmetricKey
        do {
            indexKey = try table.open(indexEntry, named: Keybag.indexKeyName, base: deviceKey)
        } catch {
            throw KeychainError.notAvailable("the index key does not open with the device key")
        }
        // `dk` now, as a check of the device key; `dku` and the first unlock's keys when needed.
        guard let always = entries[Accessibility.always.rawValue],
              let alwaysKey = try? table.open(always, named: Accessibility.always.rawValue, base: deviceKey) else {
            throw KeychainError.notAvailable("the dk key does not open with the device key")
        }
        let entriesNow = entries
        let alwaysKeys = DeferredKeys {
            var keys = (try? KeybagTable.open([.alwaysThisDeviceOnly], from: entriesNow, base: deviceKey, files: files,
                                              failure: .notAvailable("the dku key is missing"))) ?? [:]
            keys[.always] = alwaysKey
            return keys
        }
        let path = Data(utf8Of: files.database.resolvingSymlinksInPath().path)
        let digest = SHA256.hash(data: id + path)
        let firstUnlock: ClassKeyAvailability.Unlock?
        if let kdf = try table.passwordKDF() {
            firstUnlock = try KeychainPasswordFile.applying(toKeychainNamed: files.name).map { file in
                ClassKeyAvailability.Unlock(keys: DeferredKeys {
                    Self.openLockedClasses(with: file, kdf: kdf, entries: entriesNow, files: files)
                }, settings: try table.settings(), epoch: try table.keyEpoch())
            }
        } else {
            firstUnlock = ClassKeyAvailability.Unlock(keys: DeferredKeys {
                // Keys that do not open leave their classes locked; the notice says why.
                (try? KeybagTable.open(Accessibility.lockedClasses, from: entriesNow, base: deviceKey, files: files,
                                       failure: .notAvailable("the keybag is damaged"))) ?? [:]
            }, settings: try table.settings(), epoch: try table.keyEpoch())
        }
        return OpenedKeybag(
            indexKey: indexKey, alwaysKeys: alwaysKeys, firstUnlock: firstUnlock, created: created,
            keychainID: Hex.string(digest.prefix(16)))
    }

    /// The class A and C keys of a keychain with a password, opened with the password its
    /// password file holds; none (the keychain stays locked) when the file cannot be read
    /// or holds another password, which is logged once, as this runs once per process.
    private static func openLockedClasses(with file: KeychainPasswordFile, kdf: PasswordKDF, entries: [String: KeybagTable.Entry],
                                          files: KeychainFiles) -> [Accessibility: SymmetricKey] {
        do throws(KeychainError) {
            var password = try file.read()
            defer { password.zeroize() }
            let base = try kdf.deriveKey(from: password)
            return try KeybagTable.open(Accessibility.lockedClasses, from: entries, base: base, files: files,
                                        failure: .authFailed)
        } catch {
            var reason = error.description
            if case .authFailed = error { reason = "it holds another password than the keychain's" }
            keychainLogger.warning(
                "the keychain's password file does not unlock it; it stays locked",
                metadata: ["path": "\(files.database.path)", "password-file": "\(file.path)", "reason": "\(reason)"])
            return [:]
        }
    }
}
