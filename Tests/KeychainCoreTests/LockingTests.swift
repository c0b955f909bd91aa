import Crypto
import Foundation
import GRDB
@testable import KeychainCore
import Testing
import TestTags
import TestSupport

/// Passwords, locking and protection classes (a locked class fails every call with
/// errSecInteractionNotAllowed, an add too), on the
/// typed store. Each test makes its own keychain, whose unlocks are its own.
@Suite struct LockingTests {
    let caller = CallerIdentity(accessGroups: ["com.example.app"])
    let password = Data("correct horse".utf8)

    func files(_ purpose: String, machine: String = "machine-a") -> KeychainFiles {
        let folder = TestScratch.folder(purpose)
        return KeychainFiles(directory: folder.appendingPathComponent("keychains"), name: "work",
                             machineSecret: folder.appendingPathComponent(machine))
    }

    func item(_ account: String, _ accessibility: Accessibility, secret: String = "s3cret") -> NewItem {
        NewItem(itemClass: .genericPassword,
                attributes: ["acct": .string(account), "svce": .string("svc"), "pdmn": .string(accessibility.rawValue)],
                data: Data(secret.utf8))
    }

    func query(_ account: String? = nil, returning: ReturnOptions = [.data]) -> ItemQuery {
        ItemQuery(itemClass: .genericPassword, attributes: account.map { ["acct": .string($0)] } ?? [:],
                  limit: .all, returning: returning)
    }

    func secret(_ store: KeychainStore, _ account: String) throws -> String? {
        try store.find(query(account), by: caller).first?.data.map { String(decoding: $0, as: UTF8.self) }
    }

    func status(_ body: () throws -> Void) -> Int32 {
        do { try body(); return 0 } catch let error as KeychainError { return error.status } catch { return -1 }
    }

    func newStore(_ purpose: String, password: Data?, settings: KeychainSettings = .default) throws -> KeychainStore {
        let store = try KeychainStore.create(files(purpose), password: password, kdf: .fastForTesting(), settings: settings)
        for accessibility in [Accessibility.whenUnlocked, .afterFirstUnlock, .always] {
            _ = try store.add(item(accessibility.rawValue, accessibility), by: caller)
        }
        return store
    }

    @Test("While locked, class A fails every call, adds included; C and D still work")
    func lockedClassA() throws {
        let store = try newStore("locked-a", password: password)
        #expect(store.isUnlocked)
        store.lock()
        #expect(!store.isUnlocked)
        let locked = KeychainError.interactionNotAllowed.status
        #expect(status { _ = try secret(store, "ak") } == locked)
        #expect(status { _ = try store.find(query("ak", returning: [.attributes]), by: caller) } == locked)
        #expect(status { _ = try store.find(query("ak", returning: []), by: caller) } == locked)
        // A search that matches a locked item fails rather than leaving it out.
        #expect(status { _ = try store.find(query(nil), by: caller) } == locked)
        // Even a duplicate add reports the lock.
        #expect(status { _ = try store.add(item("ak", .whenUnlocked), by: caller) } == locked)
        #expect(status { _ = try store.add(item("new", .whenUnlocked), by: caller) } == locked)
        #expect(status { try store.update(query("ak", returning: []), with: ItemChanges(data: Data("x".utf8)), by: caller) } == locked)
        #expect(status { try store.delete(query("ak", returning: []), by: caller) } == locked)
        #expect(status { try store.delete(query(nil, returning: []), by: caller) } == locked)
        #expect(try secret(store, "ck") == "s3cret")
        #expect(try secret(store, "dk") == "s3cret")
        _ = try store.add(item("ck2", .afterFirstUnlock), by: caller)
        try store.unlock(password: password)
        #expect(try secret(store, "ak") == "s3cret")
    }

    @Test("a wrong password gives errSecAuthFailed and leaves the keychain locked")
    func wrongPassword() throws {
        let store = try newStore("wrong", password: password)
        store.lock()
        #expect(status { try store.unlock(password: Data("wrong".utf8)) } == -25293)
        #expect(status { try store.unlock(password: nil) } == -25293)
        #expect(!store.isUnlocked)
        try store.unlock(password: password)
        #expect(store.isUnlocked)
    }

    @Test("Class C opens at the first unlock since boot and stays open when locked")
    func afterFirstUnlock() throws {
        let store = try newStore("boot", password: password)
        store.forgetUnlocksAsAtReboot()
        let locked = KeychainError.interactionNotAllowed.status
        #expect(status { _ = try secret(store, "ck") } == locked)
        #expect(status { _ = try secret(store, "ak") } == locked)
        #expect(try secret(store, "dk") == "s3cret")
        try store.unlock(password: password)
        store.lock()
        #expect(try secret(store, "ck") == "s3cret")
        #expect(status { _ = try secret(store, "ak") } == locked)
    }

    @Test("another connection to the keychain shares its lock state without the password")
    func sharedLockState() throws {
        let store = try newStore("shared", password: password)
        // A second store object has its own in-memory keys, like another process.
        let other = try KeychainStore.open(store.files)
        #expect(try secret(other, "ak") == "s3cret")
        store.lock()
        #expect(status { _ = try secret(other, "ak") } == KeychainError.interactionNotAllowed.status)
        try other.unlock(password: password)
        #expect(try secret(store, "ak") == "s3cret")
    }

    @Test("a process whose shared count of lock changes is unusable still sees locks, by reading the keyring each time")
    func lockStateWithoutTheSharedCount() throws {
        let store = try newStore("no-count", password: password)
        // A count file that others may write could hide a lock: it is not used.
        let path = store.classKeys.sharedCountPath
        #expect(chmod(path, 0o644) == 0)
        defer { chmod(path, 0o600) }
        let other = try KeychainStore.open(store.files)
        #expect(try secret(other, "ak") == "s3cret")
        store.lock()
        #expect(status { _ = try secret(other, "ak") } == KeychainError.interactionNotAllowed.status)
        try store.unlock(password: password)
        #expect(try secret(other, "ak") == "s3cret")
    }

    @Test("a keychain without a password unlocks itself at first use, and locks when told")
    func passwordless() throws {
        let store = try KeychainStore.open(files("no-password"))
        _ = try store.add(item("ak", .whenUnlocked), by: caller)
        #expect(try !store.hasPassword)
        store.lock()
        #expect(status { _ = try secret(store, "ak") } == KeychainError.interactionNotAllowed.status)
        #expect(status { try store.unlock(password: Data("x".utf8)) } == -25293)
        try store.unlock(password: nil)
        #expect(try secret(store, "ak") == "s3cret")
        // After a reboot it unlocks itself again; a lock before any use holds.
        store.forgetUnlocksAsAtReboot()
        #expect(try secret(store, "ak") == "s3cret")
        store.forgetUnlocksAsAtReboot()
        store.lock()
        #expect(!store.isUnlocked)
    }

    @Test("threads that use a keychain without a password at once all find it unlocked")
    func concurrentFirstUse() async throws {
        for round in 0..<20 {
            let store = try KeychainStore.open(files("first-use-\(round)"))
            let failures = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask { (try? store.classKey(for: .whenUnlocked)) == nil ? 1 : 0 }
                }
                return await group.reduce(0, +)
            }
            #expect(failures == 0, "round \(round)")
        }
    }

    @Test("akpu needs a password; removing the password deletes akpu items")
    func passcodeSetItems() throws {
        let plain = try KeychainStore.open(files("akpu-plain"))
        #expect(status { _ = try plain.add(item("p", .whenPasscodeSetThisDeviceOnly), by: caller) } == -25293)
        let store = try newStore("akpu", password: password)
        _ = try store.add(item("p", .whenPasscodeSetThisDeviceOnly), by: caller)
        #expect(try secret(store, "p") == "s3cret")
        try store.changePassword(from: password, to: nil, kdf: .fastForTesting())
        #expect(status { _ = try secret(store, "p") } == KeychainError.itemNotFound.status)
        #expect(try secret(store, "ak") == "s3cret")
        #expect(status { _ = try store.add(item("p", .whenPasscodeSetThisDeviceOnly), by: caller) } == -25293)
    }

    @Test("changing the password replaces the class A and C keys and reseals their items; a wrong old password changes nothing")
    func changePassword() throws {
        let store = try newStore("change", password: password)
        let rowsBefore = try sealedRows(store)
        let keysBefore = try [Accessibility.whenUnlocked, .afterFirstUnlock, .always].map { try keyBytes(store, $0) }
        #expect(status { try store.changePassword(from: Data("nope".utf8), to: Data("new".utf8), kdf: .fastForTesting()) } == -25293)
        #expect(try sealedRows(store) == rowsBefore)
        try store.changePassword(from: password, to: Data("new".utf8), kdf: .fastForTesting())
        let keysAfter = try [Accessibility.whenUnlocked, .afterFirstUnlock, .always].map { try keyBytes(store, $0) }
        // New class A and C keys; class D, which no password protects, keeps its key.
        #expect(keysAfter[0] != keysBefore[0] && keysAfter[1] != keysBefore[1] && keysAfter[2] == keysBefore[2])
        // Items of A and C sealed anew (same row, same columns, new blobs); D untouched.
        let rowsAfter = try sealedRows(store)
        #expect(rowsAfter.count == rowsBefore.count)
        for (before, after) in zip(rowsBefore, rowsAfter) {
            let protection: String = after["protection"]
            #expect(before["identity"] as Data == after["identity"] as Data)
            if protection == Accessibility.always.rawValue {
                #expect(before == after)
            } else {
                #expect(before["secret"] as Data != after["secret"] as Data)
                #expect(before["attributes"] as Data != after["attributes"] as Data)
            }
        }
        #expect(try secret(store, "ck") == "s3cret")
        store.lock()
        #expect(status { try store.unlock(password: password) } == -25293)
        try store.unlock(password: Data("new".utf8))
        #expect(try secret(store, "ak") == "s3cret")
        // Set a password on a keychain without one, then remove it.
        let plain = try KeychainStore.open(files("set-remove"))
        _ = try plain.add(item("ak", .whenUnlocked), by: caller)
        try plain.changePassword(from: nil, to: password, kdf: .fastForTesting())
        #expect(try plain.hasPassword)
        plain.lock()
        try plain.unlock(password: password)
        try plain.changePassword(from: password, to: Data(), kdf: .fastForTesting())
        #expect(try !plain.hasPassword)
        #expect(try secret(plain, "ak") == "s3cret")
    }

    @Test("the default KDF is scrypt with N = 2^16, r = 8, and a salt of its own")
    func defaultKDF() throws {
        let first = PasswordKDF.standard(), second = PasswordKDF.standard()
        #expect(first.logRounds >= 16 && first.blockSize == 8)
        #expect(first.salt != second.salt && first.salt.count == 16)
        let store = try KeychainStore.create(files("kdf"), password: password)
        let recorded = try store.database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'password'")
        }
        #expect(recorded?.hasPrefix("scrypt 16 8 1 ") == true)
    }

    @Test("auto-lock: the keychain locks after the idle interval, and use restarts it", .tags(.slow))
    func autoLock() throws {
        // An interval of 3 s lasts 3 to 4 s: the kernel keyring counts whole seconds, and the
        // library gives it one more. The uses come 1.5 s apart (1.5 s of margin for a loaded
        // machine) and end 4.5 s after the unlock, past any interval that use did not restart.
        let store = try newStore("auto-lock", password: password, settings: KeychainSettings(lockInterval: 3))
        #expect(try store.settings() == KeychainSettings(lockInterval: 3))
        for _ in 0..<3 {
            Thread.sleep(forTimeInterval: 1.5)
            #expect(try secret(store, "ak") == "s3cret")   // a use, which restarts the interval
        }
        Thread.sleep(forTimeInterval: 4.5)
        #expect(status { _ = try secret(store, "ak") } == KeychainError.interactionNotAllowed.status)
        #expect(try secret(store, "ck") == "s3cret")
        // Without an interval it stays unlocked, past the longest the interval could last.
        try store.setSettings(KeychainSettings())
        try store.unlock(password: password)
        Thread.sleep(forTimeInterval: 4.5)
        #expect(store.isUnlocked)
    }

    @Test("lock on sleep: a suspend since the unlock locks the keychain when the setting says so")
    func lockOnSleep() throws {
        let store = try newStore("sleep", password: password)
        SuspendClock.offsetForTesting.withLock { $0 += 5_000_000_000 }
        #expect(store.isUnlocked)   // the setting is off
        try store.setSettings(KeychainSettings(lockOnSleep: true))
        try store.unlock(password: password)
        #expect(store.isUnlocked)
        SuspendClock.offsetForTesting.withLock { $0 += 5_000_000_000 }
        #expect(!store.isUnlocked)
    }

    @Test("A copy on another machine opens migratable items with the password, ThisDeviceOnly ones not")
    func secondMachine() throws {
        let here = files("machine")
        let store = try KeychainStore.create(here, password: password, kdf: .fastForTesting())
        for accessibility in Accessibility.allCases {
            _ = try store.add(item(accessibility.rawValue, accessibility), by: caller)
        }
        let elsewhere = TestScratch.folder("machine-copy")
        try FileManager.default.copyItem(at: here.directory, to: elsewhere.appendingPathComponent("keychains"))
        let copy = try KeychainStore.open(KeychainFiles(
            directory: elsewhere.appendingPathComponent("keychains"), name: "work",
            machineSecret: elsewhere.appendingPathComponent("machine-b")))
        #expect(!copy.isUnlocked)   // another keychain: the original's unlock does not carry over
        #expect(try secret(copy, "dk") == "s3cret")
        try copy.unlock(password: password)
        for accessibility in Accessibility.allCases {
            if accessibility.isThisDeviceOnly {
                #expect(status { _ = try secret(copy, accessibility.rawValue) } == KeychainError.decode.status)
                #expect(try secret(store, accessibility.rawValue) == "s3cret")
            } else {
                #expect(try secret(copy, accessibility.rawValue) == "s3cret")
            }
        }
        // They can still be deleted there.
        try copy.delete(query("aku", returning: []), by: caller)
    }

    @Test("create refuses an existing keychain; delete removes it and its unlock")
    func createAndDelete() throws {
        let store = try newStore("create", password: password)
        #expect(status { _ = try KeychainStore.create(store.files, password: nil, kdf: .fastForTesting()) } == -25296)
        try KeychainStore.delete(store.files)
        #expect(!FileManager.default.fileExists(atPath: store.files.database.path))
        #expect(status { try KeychainStore.delete(store.files) } == -25294)
        #expect(status { _ = try KeychainStore.shared(store.files, create: false) } == -25294)
    }

    @Test("unlocked keys wait in the kernel keyring, or in memory where it is unavailable")
    func unlockedKeyCache() throws {
        for cache in [UnlockedKeyCache(useKernelKeyring: true), UnlockedKeyCache(useKernelKeyring: false)] {
            let name = "swift-keychain-test:\(UUID().uuidString)"
            #expect(cache.find(name) == nil)
            let handle = cache.store([1, 2, 3], as: name, timeout: nil)
            #expect(cache.read(handle, unlessEqualTo: []) == .changed([1, 2, 3]))
            #expect(cache.read(handle, unlessEqualTo: [1, 2, 3]) == .unchanged)
            #expect(cache.find(name)?.payload == [1, 2, 3])
            cache.remove(name)
            #expect(cache.read(handle, unlessEqualTo: [1, 2, 3]) == .gone)
            #expect(cache.find(name) == nil)
        }
        #expect(UnlockedKeyCache(useKernelKeyring: true).usesKernelKeyring)
    }

    @Test("a connection that held the keys a password change replaced stores nothing under them: its add and its reads use the new keys")
    func anotherConnectionMovesToTheNewKeys() throws {
        let files = files("two-connections")
        let first = try KeychainStore.create(files, password: password, kdf: .fastForTesting())
        _ = try first.add(item("before", .afterFirstUnlock, secret: "old item"), by: caller)
        // Another connection, as another process has: it reads the unlocked keys once.
        let second = try KeychainStore.open(files)
        #expect(try secret(second, "before") == "old item")
        try first.changePassword(from: password, to: Data("new".utf8), kdf: .fastForTesting())
        // Its add was sealed under the retired key, which the transaction refuses; it is
        // sealed again under the new one.
        _ = try second.add(item("after", .afterFirstUnlock, secret: "new item"), by: caller)
        #expect(try secret(first, "after") == "new item")
        #expect(try secret(second, "before") == "old item")
        #expect(try keyBytes(second, .afterFirstUnlock) == keyBytes(first, .afterFirstUnlock))
    }

    @Test("An update that makes an item akpu needs a keychain with a password (errSecAuthFailed without one)")
    func updateToPasscodeClass() throws {
        let store = try newStore("update-akpu", password: password)
        let changes = ItemChanges(attributes: ["pdmn": .string(Accessibility.whenPasscodeSetThisDeviceOnly.rawValue)])
        try store.update(query("ck"), with: changes, by: caller)
        #expect(try secret(store, "ck") == "s3cret")
        let plain = try newStore("update-akpu-plain", password: nil)
        #expect(status { try plain.update(query("ck"), with: changes, by: caller) } == KeychainError.authFailed.status)
    }

    @Test("a class key's AES-GCM setup is kept while the key is held, and dropped with it at a lock or a password change")
    func keptCiphers() throws {
        let store = try newStore("kept-ciphers", password: password)
        weak var classA: KeyedAESGCM?
        weak var classC: KeyedAESGCM?
        weak var classD: KeyedAESGCM?
        do {
            let a = try store.classKeys.cipherAndEpoch(for: .whenUnlocked).cipher
            let c = try store.classKeys.cipherAndEpoch(for: .afterFirstUnlock).cipher
            let d = try store.classKeys.cipherAndEpoch(for: .always).cipher
            // The same setup for the next call, and each the setup of its class's key.
            #expect(try store.classKeys.cipherAndEpoch(for: .whenUnlocked).cipher === a)
            #expect(try store.classKeys.cipherAndEpoch(for: .always).cipher === d)
            for (cipher, accessibility) in [(a, Accessibility.whenUnlocked), (c, .afterFirstUnlock), (d, .always)] {
                try expectSealsUnderKey(cipher, of: store, accessibility)
            }
            (classA, classC, classD) = (a, c, d)
        }
        #expect(classA != nil && classC != nil && classD != nil)
        // A lock frees class A's setup (and so zeroes its expanded key); C and D stay open.
        store.lock()
        #expect(classA == nil)
        #expect(classC != nil && classD != nil)
        try store.unlock(password: password)
        do {
            let a = try store.classKeys.cipherAndEpoch(for: .whenUnlocked).cipher
            try expectSealsUnderKey(a, of: store, .whenUnlocked)
            classA = a
        }
        // A password change replaces the class A and C keys: their old setups go, and the
        // new ones seal under the new keys.
        try store.changePassword(from: password, to: Data("new".utf8), kdf: .fastForTesting())
        #expect(classA == nil && classC == nil)
        #expect(classD != nil)
        for accessibility in [Accessibility.whenUnlocked, .afterFirstUnlock, .always] {
            try expectSealsUnderKey(store.classKeys.cipherAndEpoch(for: accessibility).cipher, of: store, accessibility)
        }
        #expect(try secret(store, "ak") == "s3cret")
    }

    /// Whether `cipher` seals what swift-crypto's AES.GCM opens under the class key the
    /// store holds now, and opens what AES.GCM seals under it.
    func expectSealsUnderKey(_ cipher: KeyedAESGCM, of store: KeychainStore, _ accessibility: Accessibility) throws {
        let key = try store.classKeys.key(for: accessibility)
        let aad = Data(accessibility.rawValue.utf8)
        let sealed = try RecordSealer.seal(Data("probe".utf8), with: cipher, binding: aad)
        #expect(try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key, authenticating: aad) == Data("probe".utf8))
        let theirs = try #require(try AES.GCM.seal(Data("other".utf8), using: key, authenticating: aad).combined)
        #expect(try RecordSealer.open(theirs, with: cipher, binding: aad) == Data("other".utf8))
    }

    func keyBytes(_ store: KeychainStore, _ accessibility: Accessibility) throws -> Data {
        try store.classKeys.key(for: accessibility).withUnsafeBytes { Data($0) }
    }

    func sealedRows(_ store: KeychainStore) throws -> [Row] {
        try store.database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM item ORDER BY id") }
    }
}
