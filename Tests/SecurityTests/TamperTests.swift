import Foundation
import GRDB
import Security
import Testing
import TestSupport

/// A damaged or tampered record gives errSecDecode for that item, never another item's
/// secret, while the rest of the keychain keeps working; a keychain that cannot be opened
/// gives errSecNotAvailable.
@Suite struct TamperTests {
    let keychain = PrivateKeychain()
    var database: URL { keychain.directory.appendingPathComponent("login.keychain-db") }

    func addTwo() {
        #expect(keychain.add(genericPassword(account: "alice").with([kSecValueData as String: Data("alice-secret".utf8)])) == errSecSuccess)
        #expect(keychain.add(genericPassword(account: "bob").with([kSecValueData as String: Data("bob-secret".utf8)])) == errSecSuccess)
    }

    /// Changes the stored rows directly, as someone with the files could.
    func tamper(_ sql: String) throws {
        let queue = try DatabaseQueue(path: database.path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
    }

    /// Swaps columns between the rows of alice (1) and bob (2), through a placeholder so
    /// that UNIQUE columns never hold one value twice.
    func swap(_ columns: [String]) throws {
        let queue = try DatabaseQueue(path: database.path)
        try queue.write { db in
            for column in columns {
                let first = try Data.fetchOne(db, sql: "SELECT \(column) FROM item WHERE id = 1")
                let second = try Data.fetchOne(db, sql: "SELECT \(column) FROM item WHERE id = 2")
                try db.execute(sql: "UPDATE item SET \(column) = randomblob(32) WHERE id = 1")
                try db.execute(sql: "UPDATE item SET \(column) = ? WHERE id = 2", arguments: [first])
                try db.execute(sql: "UPDATE item SET \(column) = ? WHERE id = 1", arguments: [second])
            }
        }
        try queue.close()
    }

    func secret(of account: String) -> (OSStatus, Data?) {
        let found = keychain.copyMatching(genericPassword(account: account).with([kSecReturnData as String: true]))
        return (found.status, found.result as? Data)
    }

    func attributes(of account: String) -> OSStatus {
        keychain.copyMatching(genericPassword(account: account).with([kSecReturnAttributes as String: true])).status
    }

    @Test func aFlippedByteInTheSecretIsErrSecDecode() throws {
        addTwo()
        try tamper("UPDATE item SET secret = substr(secret, 1, 20) || (CASE substr(secret, 21, 1) WHEN x'FF' THEN x'00' ELSE x'FF' END) || substr(secret, 22) WHERE id = 1")
        #expect(secret(of: "alice").0 == errSecDecode)
        #expect(secret(of: "bob").1 == Data("bob-secret".utf8))
    }

    @Test func aFlippedByteInTheAttributesIsErrSecDecode() throws {
        addTwo()
        try tamper("UPDATE item SET attributes = substr(attributes, 1, 20) || (CASE substr(attributes, 21, 1) WHEN x'FF' THEN x'00' ELSE x'FF' END) || substr(attributes, 22) WHERE id = 1")
        #expect(attributes(of: "alice") == errSecDecode)
        #expect(attributes(of: "bob") == errSecSuccess)
    }

    @Test func swappedSecretsNeverYieldTheOtherItemsSecret() throws {
        addTwo()
        try swap(["secret"])
        #expect(secret(of: "alice") == (errSecDecode, nil))
        #expect(secret(of: "bob") == (errSecDecode, nil))
    }

    @Test func swappedHashColumnsNeverYieldTheOtherItemsSecret() throws {
        addTwo()
        try swap(["acct", "identity"])
        #expect(secret(of: "alice") == (errSecDecode, nil))
        #expect(secret(of: "bob") == (errSecDecode, nil))
    }

    @Test func swappedNoncesNeverYieldTheOtherItemsSecret() throws {
        addTwo()
        try swap(["nonce", "secret"])
        #expect(secret(of: "alice") == (errSecDecode, nil))
        #expect(secret(of: "bob") == (errSecDecode, nil))
    }

    @Test func aChangedProtectionClassIsErrSecDecode() throws {
        addTwo()
        try tamper("UPDATE item SET protection = 'dk' WHERE id = 1")
        #expect(secret(of: "alice").0 == errSecDecode)
        #expect(secret(of: "bob").1 == Data("bob-secret".utf8))
    }

    /// Every secret a caller of `groups` gets back from a search of all generic passwords,
    /// and the status of that search.
    func everySecret(as groups: [String]) -> (OSStatus, [Data]) {
        let found = keychain.asCaller(groups).copyMatching([
            kSecClass as String: kSecClassGenericPassword,
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnData as String: true,
        ])
        return (found.status, (found.result as? [Data]) ?? (found.result as? Data).map { [$0] } ?? [])
    }

    @Test("An item moved offline into another access group (its group and identity columns copied from that group's item) is never shown to that group: errSecDecode, never its secret")
    func aChangedAccessGroupNeverShowsTheItemToTheOtherGroup() throws {
        addTwo()
        #expect(keychain.add(genericPassword(account: "carol").with([
            kSecAttrAccessGroup as String: "com.example.shared",
            kSecValueData as String: Data("carol-secret".utf8),
        ])) == errSecSuccess)
        // Alice (row 1) is in com.example.app; carol (row 3) in com.example.shared.
        try tamper("UPDATE item SET agrp = (SELECT agrp FROM item WHERE id = 3), identity = (SELECT identity FROM item WHERE id = 3) WHERE id = 1")
        let shared = keychain.asCaller(["com.example.shared"])
        let asShared = shared.copyMatching(genericPassword(account: "alice").with([kSecReturnData as String: true]))
        #expect(asShared.status == errSecDecode)
        #expect(asShared.result == nil)
        let (status, secrets) = everySecret(as: ["com.example.shared"])
        #expect(status == errSecDecode || status == errSecSuccess)
        #expect(!secrets.contains(Data("alice-secret".utf8)))
        // Carol's own item is untouched; the app group no longer finds alice at all.
        #expect(shared.secret(genericPassword(account: "carol")) == Data("carol-secret".utf8))
        #expect(keychain.asCaller(["com.example.app"]).copyMatching(genericPassword(account: "alice")).status
            == errSecItemNotFound)
        #expect(secret(of: "bob").1 == Data("bob-secret".utf8))
    }

    @Test("A sync flag or item class changed offline is errSecDecode for that item, never its secret",
          arguments: ["sync = 1 - sync", "class = 2"])
    func aChangedSyncOrClassColumnIsErrSecDecode(change: String) throws {
        addTwo()
        try tamper("UPDATE item SET \(change) WHERE id = 1")
        let asSynchronizable = keychain.copyMatching(genericPassword(account: "alice").with([
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny, kSecReturnData as String: true,
        ]))
        let asInternet = keychain.copyMatching([
            kSecClass as String: kSecClassInternetPassword, kSecAttrAccount as String: "alice",
            kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnData as String: true,
        ])
        // Whichever query still finds the row must fail to open it.
        for found in [asSynchronizable, asInternet] {
            #expect(found.status == errSecDecode || found.status == errSecItemNotFound)
            #expect(found.result == nil)
        }
        #expect([asSynchronizable.status, asInternet.status].contains(errSecDecode))
        #expect(secret(of: "bob").1 == Data("bob-secret".utf8))
    }

    @Test func aDamagedItemCanStillBeDeleted() throws {
        addTwo()
        try tamper("UPDATE item SET attributes = x'00', secret = x'00' WHERE id = 1")
        #expect(keychain.delete(genericPassword(account: "alice")) == errSecSuccess)
        #expect(secret(of: "alice").0 == errSecItemNotFound)
        #expect(secret(of: "bob").1 == Data("bob-secret".utf8))
    }

    // A keychain's files copied into a fresh folder, so that no open store is reused.
    func copyOfKeychain(withKey: Bool) throws -> PrivateKeychain {
        addTwo()
        let copy = PrivateKeychain()
        try FileManager.default.createDirectory(at: copy.directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: database.path)
        let copied = copy.directory.appendingPathComponent("login.keychain-db")
        try queue.backup(to: DatabaseQueue(path: copied.path))
        try queue.close()
        // SQLite made the copy 0644; the library opens only a database that is its user's alone.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copied.path)
        if withKey {
            try FileManager.default.copyItem(at: keychain.directory.appendingPathComponent("login.keychain-key"),
                                             to: copy.directory.appendingPathComponent("login.keychain-key"))
        }
        return copy
    }

    @Test func aCopyWithItsKeyOpens() throws {
        let copy = try copyOfKeychain(withKey: true)
        let found = copy.copyMatching(genericPassword(account: "bob").with([kSecReturnData as String: true]))
        #expect(found.result as? Data == Data("bob-secret".utf8))
    }

    @Test func aKeychainWithoutItsDeviceKeyIsNotAvailable() throws {
        let copy = try copyOfKeychain(withKey: false)
        #expect(copy.copyMatching(genericPassword(account: "bob")).status == errSecNotAvailable)
        #expect(copy.add(genericPassword(account: "new")) == errSecNotAvailable)
    }

    @Test func aKeychainWithTheWrongDeviceKeyIsNotAvailable() throws {
        let copy = try copyOfKeychain(withKey: false)
        try Data(repeating: 7, count: 32).write(to: copy.directory.appendingPathComponent("login.keychain-key"))
        #expect(copy.copyMatching(genericPassword(account: "bob")).status == errSecNotAvailable)
    }

    /// 99: written by a newer library; 1: by development builds before the first release.
    @Test(arguments: [99, 1])
    func anotherFormatIsErrSecWrongSecVersion(format: Int) throws {
        let copy = try copyOfKeychain(withKey: true)
        let queue = try DatabaseQueue(path: copy.directory.appendingPathComponent("login.keychain-db").path)
        try queue.write { try $0.execute(sql: "UPDATE meta SET value = ? WHERE key = 'format'", arguments: [format]) }
        try queue.close()
        #expect(copy.copyMatching(genericPassword(account: "bob")).status == errSecWrongSecVersion)
        #expect(copy.add(genericPassword(account: "new")) == errSecWrongSecVersion)
    }

    /// Format 2 is still read and taken over at open: for a format other than the current
    /// one the migrations run, and the database then records the current format.
    @Test func formatTwoIsMigratedToTheCurrentFormatAtOpen() throws {
        let copy = try copyOfKeychain(withKey: true)
        let path = copy.directory.appendingPathComponent("login.keychain-db").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE meta SET value = 2 WHERE key = 'format'")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v3'")
        }
        try queue.close()
        let found = copy.copyMatching(genericPassword(account: "bob").with([kSecReturnData as String: true]))
        #expect(found.result as? Data == Data("bob-secret".utf8))
        let reopened = try DatabaseQueue(path: path)
        // The current format, 7 since the index of searched attributes.
        #expect(try reopened.read { try Int.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'format'") } == 7)
        #expect(try reopened.read { try Bool.fetchOne($0, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = 'v3')") } == true)
        try reopened.close()
    }

    /// Opening a keychain at the current format runs no migration check (a cost every fresh
    /// process would pay): even without the migrator's table, it opens and stays as it was.
    @Test func theCurrentFormatOpensWithoutAMigrationCheck() throws {
        let copy = try copyOfKeychain(withKey: true)
        let path = copy.directory.appendingPathComponent("login.keychain-db").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "DROP TABLE grdb_migrations") }
        try queue.close()
        let found = copy.copyMatching(genericPassword(account: "bob").with([kSecReturnData as String: true]))
        #expect(found.result as? Data == Data("bob-secret".utf8))
        let reopened = try DatabaseQueue(path: path)
        #expect(try reopened.read { try $0.tableExists("grdb_migrations") } == false)
        try reopened.close()
    }

    @Test func aFileThatIsNotAKeychainIsNotAvailable() throws {
        let other = PrivateKeychain()
        try FileManager.default.createDirectory(at: other.directory, withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 8192).write(to: other.directory.appendingPathComponent("login.keychain-db"))
        #expect(other.add(genericPassword()) == errSecNotAvailable)
    }

    @Test func aFolderThatCannotBeCreatedIsNotAvailable() throws {
        let blocker = TestScratch.folder("blocker")
        try FileManager.default.createDirectory(at: blocker.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("a file, not a folder".utf8).write(to: blocker)
        let environment = KeychainEnvironment(directory: blocker.appendingPathComponent("keychains"), accessGroups: ["g"])
        let status = KeychainEnvironment.withValue(environment) { SecItemAdd(genericPassword() as CFDictionary, nil) }
        #expect(status == errSecNotAvailable)
    }
}
