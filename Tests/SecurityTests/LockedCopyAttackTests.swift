import Crypto
import Foundation
import GRDB
import KeychainProof
import Security
import Testing
import TestSupport

/// What a copy of a locked keychain with a password gives an attacker who holds its whole
/// folder (the database and the key file beside it, as a backup has them) but not the
/// password, done as the attacker would, with swift-crypto and SQLite rather than the
/// library: the documented limit of "What is and is not protected".
///
/// The index key that makes searches index lookups is wrapped by the device key, not by the
/// password, since `kSecAttrAccessibleAlways` items and the Secret Service's listing of a
/// locked collection must be found while the keychain is locked. So the attacker can confirm
/// a guess of an account, service or access group (its keyed hash matches a column), and
/// learns nothing else: the secret, the label and the other attributes of a class A item
/// stay sealed under a key the password wraps.
@Suite struct LockedCopyAttackTests {
    @Test("A copy of a locked keychain with a password, with its key file, confirms guessed accounts, services and access groups, and opens no class A item (What is protected: the index key is the device key's)")
    func copyConfirmsGuessesOfLookupAttributesOnly() throws {
        let keychain = PrivateKeychain(accessGroups: ["com.example.app"])
        let name = "guarded"
        let password = Array("correct horse".utf8)
        var created: SecKeychain?
        try #require(keychain.run { SecKeychainCreate(name, UInt32(password.count), password, false, nil, &created) } == errSecSuccess)
        let use: [String: Any] = [kSecUseKeychain as String: try #require(created)]
        let secret = "the launch code 0451"
        #expect(keychain.add(genericPassword(account: "alice@example.com", service: "vault.example.com").with(use).with([
            kSecAttrLabel as String: "Alice's vault", kSecValueData as String: Data(secret.utf8),
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
        ])) == errSecSuccess)
        #expect(keychain.run { SecKeychainLock(created) } == errSecSuccess)

        // The attacker's copy: both files, read as bytes.
        let copy = TestScratch.folder("locked-copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for file in ["\(name).keychain-db", "\(name).keychain-db-wal", "\(name).keychain-key"] {
            let source = keychain.directory.appendingPathComponent(file)
            if FileManager.default.fileExists(atPath: source.path) {
                try Data(FileBytes.read(source)).write(to: copy.appendingPathComponent(file))
            }
        }
        let deviceKey = SymmetricKey(data: try FileBytes.read(copy.appendingPathComponent("\(name).keychain-key")))
        let queue = try DatabaseQueue(path: copy.appendingPathComponent("\(name).keychain-db").path)
        defer { try? queue.close() }
        let (keybag, rows) = try queue.read { db in
            (try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT name, wrapped FROM keybag").map {
                (try $0.decode(forColumn: "name") as String, Array(try $0.decode(forColumn: "wrapped") as Data))
             }),
             try Row.fetchAll(db, sql: "SELECT protection, acct, svce, agrp FROM item"))
        }
        func unwrap(_ name: String) -> SymmetricKey? {
            guard let wrapped = keybag[name], let box = try? AES.GCM.SealedBox(combined: wrapped),
                  let key = try? AES.GCM.open(box, using: deviceKey, authenticating: Array("swift-keychain keybag \(name)".utf8))
            else { return nil }
            return SymmetricKey(data: key)
        }
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(try row.decode(forColumn: "protection") as String == "ak")

        // The index key opens with the key file alone.
        let indexKey = try #require(unwrap("index"))
        func keyedHash(_ code: String, _ value: String) -> Data {
            Data(HMAC<SHA256>.authenticationCode(for: Array(code.utf8) + [0] + Array(value.utf8), using: indexKey))
        }
        let account: Data = try row.decode(forColumn: "acct"), service: Data = try row.decode(forColumn: "svce")
        let group: Data = try row.decode(forColumn: "agrp")
        // A right guess is confirmed, a wrong one is not.
        #expect(keyedHash("acct", "alice@example.com") == account)
        #expect(keyedHash("acct", "bob@example.com") != account)
        #expect(keyedHash("svce", "vault.example.com") == service)
        #expect(keyedHash("agrp", "com.example.app") == group)

        // The class A key, which seals the item's secret and attributes, does not open without
        // the password; the secret, the label and the values guessed at are nowhere in clear.
        #expect(unwrap("ak") == nil)
        #expect(unwrap("ck") == nil)
        // As a check of the attacker's unwrapping: class D's key is the device key's, and opens.
        #expect(unwrap("dk") != nil)
        for file in try FileManager.default.contentsOfDirectory(atPath: copy.path) {
            let bytes = try FileBytes.read(copy.appendingPathComponent(file))
            for clear in [secret, "Alice's vault", "alice@example.com", "vault.example.com"] {
                #expect(ByteSearch.offsets(of: Array(clear.utf8), in: bytes).isEmpty, "\(clear) in \(file)")
            }
        }
    }
}
