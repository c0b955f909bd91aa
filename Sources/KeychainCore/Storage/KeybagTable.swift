import Crypto
import Foundation
import GRDB
import GRDBSQLite

/// The `keybag` and `meta` rows that hold a keychain's keys and password parameters, read
/// and written in the caller's transaction.
struct KeybagTable {
    struct Entry: Sendable {
        var wrapping: KeyWrapping
        var wrapped: Data
    }

    let db: Database
    let files: KeychainFiles
    /// Read once for all the machine-bound keys this table wraps or opens.
    let machineSecret: MachineSecret.Once

    init(db: Database, files: KeychainFiles) {
        self.db = db
        self.files = files
        machineSecret = MachineSecret.Once(files.machineSecret)
    }

    func entries() throws -> [String: Entry] {
        var entries: [String: Entry] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, wrapping, wrapped FROM keybag") {
            // A damaged page can hold a NULL or a value of another type, on which GRDB's
            // typed subscripts trap: the throwing decoders make it a damaged keychain instead.
            let name: String, wrapping: String, wrapped: Data
            do {
                name = try row.decode(forColumn: "name")
                wrapping = try row.decode(forColumn: "wrapping")
                wrapped = try row.decode(forColumn: "wrapped")
            } catch {
                throw KeychainError.notAvailable("the keybag is damaged")
            }
            guard let kind = KeyWrapping(rawValue: wrapping) else {
                throw KeychainError.notAvailable("the \(name) key has a wrapping this library does not know")
            }
            entries[name] = Entry(wrapping: kind, wrapped: wrapped)
        }
        return entries
    }

    /// Wraps `key` as `wrapping` says, under `base` (the device or the password key).
    func store(_ key: SymmetricKey, named name: String, wrapping: KeyWrapping, base: SymmetricKey) throws {
        let wrapped = try Keybag.wrap(key, named: name, with: wrapping.key(base: base, machineSecret: machineSecret.key))
        try db.execute(
            sql: "INSERT OR REPLACE INTO keybag (name, wrapping, wrapped) VALUES (?, ?, ?)",
            arguments: [name, wrapping.rawValue, wrapped])
    }

    /// Draws a new random key for each of `names` and stores it wrapped as a keychain with a
    /// password (`passwordKey`) or without one (`deviceKey`) wraps it: the one rule for a new
    /// keybag and for the keys a password change replaces. The new class keys.
    func storeNewKeys(named names: [String], passwordKey: SymmetricKey?,
                      deviceKey: SymmetricKey?) throws -> [Accessibility: SymmetricKey] {
        var keys: [Accessibility: SymmetricKey] = [:]
        for name in names {
            let key = SymmetricKey(size: .bits256)
            let wrapping = Keybag.wrapping(of: name, withPassword: passwordKey != nil)
            guard let base = wrapping.needsPassword ? passwordKey : deviceKey else {
                throw KeychainError.io("no key to wrap the \(name) key with")
            }
            try store(key, named: name, wrapping: wrapping, base: base)
            if let accessibility = Accessibility(rawValue: name) { keys[accessibility] = key }
        }
        return keys
    }

    /// The key of an entry; errSecDecode when it does not open under `base`.
    func open(_ entry: Entry, named name: String, base: SymmetricKey) throws(KeychainError) -> SymmetricKey {
        try Self.open(entry, named: name, base: base, machineSecret: machineSecret)
    }

    /// The key of an entry, bound to this machine's secret (read only then) where its
    /// wrapping says so.
    static func open(_ entry: Entry, named name: String, base: SymmetricKey,
                     machineSecret: MachineSecret.Once) throws(KeychainError) -> SymmetricKey {
        try Keybag.unwrap(entry.wrapped, named: name, with: entry.wrapping.key(base: base, machineSecret: machineSecret.key))
    }

    /// Opens the keys of `classes` under `base`. A ThisDeviceOnly key that does not open is
    /// left out, with a notice: it was bound to another machine. Any other key that does not
    /// open, or is missing, throws `failure`.
    static func open(_ classes: [Accessibility], from entries: [String: Entry], base: SymmetricKey,
                     files: KeychainFiles, failure: KeychainError) throws(KeychainError) -> [Accessibility: SymmetricKey] {
        var keys: [Accessibility: SymmetricKey] = [:]
        let machineSecret = MachineSecret.Once(files.machineSecret)
        for accessibility in classes {
            guard let entry = entries[accessibility.rawValue] else { throw failure }
            do {
                keys[accessibility] = try open(entry, named: accessibility.rawValue, base: base, machineSecret: machineSecret)
            } catch {
                guard entry.wrapping.needsMachineSecret else { throw failure }
                keychainLogger.notice(
                    "ThisDeviceOnly items were made on another machine and do not open here",
                    metadata: ["class": "\(accessibility.rawValue)", "path": "\(files.database.path)"])
            }
        }
        return keys
    }

    func deviceKey(create: Bool = false) throws(KeychainError) -> SymmetricKey {
        try DeviceKeyFile.load(files, create: create)
    }

    /// The KDF of the keychain's password, or nil for a keychain without one.
    func passwordKDF() throws -> PasswordKDF? {
        guard let text = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'password'") else { return nil }
        guard let kdf = PasswordKDF(encoded: text) else {
            throw KeychainError.notAvailable("the keychain's password parameters are damaged or ask for more work than the bound allows (see the log)")
        }
        return kdf
    }

    func setPasswordKDF(_ kdf: PasswordKDF?) throws {
        if let kdf {
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('password', ?)", arguments: [kdf.encoded])
        } else {
            try db.execute(sql: "DELETE FROM meta WHERE key = 'password'")
        }
    }

    /// Which generation of class A and C keys the keybag holds: 0 until a password is first
    /// set, then a new random number each time the keys are replaced. A process whose keys
    /// are of another epoch holds keys that a password change retired.
    func keyEpoch() throws -> UInt64 {
        try Self.keyEpoch(db)
    }

    static func keyEpoch(_ db: Database) throws -> UInt64 {
        // A cached statement: every class A or C write reads it.
        var epoch: UInt64 = 0
        try DirectStatement(db, sql: "SELECT value FROM meta WHERE key = 'key-epoch'", values: []).forEachRow { statement in
            epoch = UInt64(bitPattern: sqlite3_column_int64(statement, 0))
            return false
        }
        return epoch
    }

    /// Fails with ``StaleClassKeys`` unless the keybag's keys are of `epoch` (nil, for
    /// class D keys, never changes): what a write sealed under a class A or C key checks in
    /// its transaction, so that a process that missed a password change never stores an item
    /// no current key opens.
    static func requireEpoch(_ epoch: UInt64?, in db: Database) throws {
        guard let epoch else { return }
        guard try keyEpoch(db) == epoch else { throw StaleClassKeys() }
    }

    func setKeyEpoch(_ epoch: UInt64) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('key-epoch', ?)",
                       arguments: [Int64(bitPattern: epoch)])
    }

    func settings() throws -> KeychainSettings {
        let interval = try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'lock-interval'")
        let onSleep = try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'lock-on-sleep'")
        return KeychainSettings(lockInterval: interval.flatMap { UInt32(exactly: $0) }, lockOnSleep: onSleep == 1)
    }

    func setSettings(_ settings: KeychainSettings) throws {
        try db.execute(sql: "DELETE FROM meta WHERE key IN ('lock-interval', 'lock-on-sleep')")
        if let interval = settings.lockInterval {
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('lock-interval', ?)", arguments: [Int(interval)])
        }
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('lock-on-sleep', ?)", arguments: [settings.lockOnSleep ? 1 : 0])
    }

    /// Opens the class A and C keys (and `akpu`) with `password`, as an unlock or a change
    /// of password must: errSecAuthFailed for a wrong password, or for a password given to
    /// a keychain without one. ThisDeviceOnly keys that do not open are left out: they were
    /// bound to another machine.
    func openLockedClasses(password: Data?) throws -> [Accessibility: SymmetricKey] {
        let entries = try entries()
        let kdf = try passwordKDF()
        let base: SymmetricKey
        if let kdf {
            guard let password, !password.isEmpty else { throw KeychainError.authFailed }
            base = try kdf.deriveKey(from: password)
        } else {
            guard password?.isEmpty ?? true else { throw KeychainError.authFailed }
            base = try deviceKey()
        }
        let locked = Accessibility.lockedClasses
        guard locked.allSatisfy({ entries[$0.rawValue]?.wrapping.needsPassword == (kdf != nil) }) else {
            throw KeychainError.notAvailable("the keybag's keys do not match its password")
        }
        return try Self.open(locked, from: entries, base: base, files: files, failure: .authFailed)
    }
}
