import Foundation
import GRDB
import Security

/// The attack on a password change (design: setting or changing the password rotates the
/// class keys): someone who kept the keybag and the `password` row from before the change
/// (an old backup, or page versions left in the log) copies the keychain's folder now,
/// splices those rows back into the copy with SQLite, unlocks the copy with the old
/// password and reads an item added after the change. That must fail, never yield the secret.
public struct OldKeybagAttack {
    /// The keybag rows and password row from before the change.
    public let before: KeychainSnapshot
    /// The password before the change, or nil when the keychain had none.
    public let oldPassword: String?

    public init(before: KeychainSnapshot, oldPassword: String?) {
        self.before = before
        self.oldPassword = oldPassword
    }

    public struct Result: Sendable {
        /// The unlock of the spliced copy with the old password.
        public let unlockStatus: OSStatus
        /// Whether the read yielded the item's secret: the attack worked.
        public let secretRevealed: Bool
    }

    /// Copies keychain `name` of `folder` into `workFolder`, splices the old rows in, and
    /// reads the generic password `service`/`account` whose secret is `secret`.
    public func run(name: String, folder: URL, workFolder: URL, accessGroups: [String],
                    service: String, account: String, secret: Data) throws -> Result {
        try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        // The database, its log and its device key; the shared memory is rebuilt from the log.
        for suffix in [".keychain-db", ".keychain-db-wal", ".keychain-key"] {
            let source = folder.appendingPathComponent(name + suffix)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            let target = workFolder.appendingPathComponent(name + suffix).path
            guard FileManager.default.createFile(atPath: target, contents: Data(try FileBytes.read(source)),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw ProofFailure("cannot copy \(name + suffix)")
            }
        }
        let copy = workFolder.appendingPathComponent(name + ".keychain-db")
        try splice(into: copy)
        let environment = KeychainEnvironment(directory: workFolder, keychainName: name, accessGroups: accessGroups)
        return KeychainEnvironment.withValue(environment) {
            let password = Array((oldPassword ?? "").utf8)
            let unlocked = SecKeychainUnlock(nil, UInt32(password.count), password, true)
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account, kSecReturnData as String: true,
            ]
            _ = SecItemCopyMatching(query as CFDictionary, &result)
            let revealed = (result as? Data) == secret
            // Forget the copy's unlock, for every process, and its files.
            _ = SecKeychainLock(nil)
            var copyKeychain: SecKeychain?
            _ = SecKeychainOpen(name, &copyKeychain)
            _ = SecKeychainDelete(copyKeychain)
            return Result(unlockStatus: unlocked, secretRevealed: revealed)
        }
    }

    /// Puts the old class A and C rows and the old password row (or its absence) into the copy.
    func splice(into database: URL) throws {
        let queue = try DatabaseQueue(path: database.path)
        defer { try? queue.close() }
        try queue.write { db in
            for row in before.keybag.values where DeviceKeyAttacker.lockedClassNames.contains(row.name) {
                try db.execute(sql: "INSERT OR REPLACE INTO keybag (name, wrapping, wrapped) VALUES (?, ?, ?)",
                               arguments: [row.name, row.wrapping, Data(row.wrapped)])
            }
            switch before.password {
            case .text(let text)?:
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('password', ?)", arguments: [text])
            case .blob(let blob)?:
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('password', ?)", arguments: [Data(blob)])
            case .integer(let integer)?:
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('password', ?)", arguments: [integer])
            case .real(let real)?:
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('password', ?)", arguments: [real])
            case .null?, nil:
                try db.execute(sql: "DELETE FROM meta WHERE key = 'password'")
            }
        }
        // Read back: the copy must hold the old rows now, or the attack proves nothing.
        let spliced = try KeychainSnapshot(database: database)
        for row in before.keybag.values where DeviceKeyAttacker.lockedClassNames.contains(row.name) {
            guard spliced.keybag[row.name] == row else { throw ProofFailure("the splice of the \(row.name) row did not take") }
        }
        guard spliced.password == before.password else { throw ProofFailure("the splice of the password row did not take") }
    }
}
