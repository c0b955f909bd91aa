import Foundation
import Security
import Testing
import TestTags
import TestSupport

/// The keychain-management calls and the lock rules of Keychain Services (a call on a
/// locked class is errSecInteractionNotAllowed, an add even when it would be a duplicate;
/// class C stays readable after the first unlock, class D always), through Apple's API as
/// macOS code calls it.
@Suite struct KeychainManagementTests {
    let keychain = PrivateKeychain()
    let password = Array("open sesame".utf8)

    func create(_ name: String, password: [UInt8]?) throws -> SecKeychain {
        var created: SecKeychain?
        let status = keychain.run {
            SecKeychainCreate(name, UInt32(password?.count ?? 0), password, false, nil, &created)
        }
        try #require(status == errSecSuccess)
        return try #require(created)
    }

    func item(_ keychainRef: SecKeychain, _ account: String = "alice") -> [String: Any] {
        genericPassword(account: account).with([kSecUseKeychain as String: keychainRef])
    }

    func status(_ keychainRef: SecKeychain?) -> SecKeychainStatus {
        var status: SecKeychainStatus = 0
        #expect(keychain.run { SecKeychainGetStatus(keychainRef, &status) } == errSecSuccess)
        return status
    }

    @Test("the calls have Apple's signatures")
    func signatures() {
        let _: (UnsafePointer<CChar>, UInt32, UnsafeRawPointer?, Bool, SecAccess?, UnsafeMutablePointer<SecKeychain?>) -> OSStatus = SecKeychainCreate
        let _: (UnsafePointer<CChar>, UnsafeMutablePointer<SecKeychain?>) -> OSStatus = SecKeychainOpen
        let _: (UnsafeMutablePointer<SecKeychain?>) -> OSStatus = SecKeychainCopyDefault
        let _: (SecKeychain?) -> OSStatus = SecKeychainDelete
        let _: (SecKeychain?) -> OSStatus = SecKeychainLock
        let _: () -> OSStatus = SecKeychainLockAll
        let _: (SecKeychain?, UInt32, UnsafeRawPointer?, Bool) -> OSStatus = SecKeychainUnlock
        let _: (SecKeychain?, UnsafeMutablePointer<SecKeychainStatus>) -> OSStatus = SecKeychainGetStatus
        let _: (SecKeychain?, UnsafeMutablePointer<SecKeychainSettings>) -> OSStatus = SecKeychainCopySettings
        let _: (SecKeychain?, UnsafePointer<SecKeychainSettings>) -> OSStatus = SecKeychainSetSettings
        #expect(kSecUnlockStateStatus == 1 && kSecReadPermStatus == 2 && kSecWritePermStatus == 4)
        #expect(kSecUseKeychain as String == "u_Keychain")
    }

    @Test("A locked keychain refuses class A items; unlocking needs the password", .tags(.slow))
    func lockAndUnlock() throws {
        let work = try create("work", password: password)
        #expect(status(work) == kSecUnlockStateStatus | kSecReadPermStatus | kSecWritePermStatus)
        #expect(keychain.add(item(work).with([kSecValueData as String: Data("s3cret".utf8)])) == errSecSuccess)
        #expect(keychain.add(item(work, "carl").with([kSecAttrAccessible as String: kSecAttrAccessibleAlways])) == errSecSuccess)
        #expect(keychain.run { SecKeychainLock(work) } == errSecSuccess)
        #expect(status(work) & kSecUnlockStateStatus == 0)
        let find = item(work).with([kSecReturnData as String: true])
        #expect(keychain.copyMatching(find).status == errSecInteractionNotAllowed)
        #expect(keychain.copyMatching(item(work).with([kSecReturnAttributes as String: true])).status == errSecInteractionNotAllowed)
        #expect(keychain.add(item(work)) == errSecInteractionNotAllowed)          // locked wins over duplicate
        #expect(keychain.update(item(work), [kSecValueData as String: Data("x".utf8)]) == errSecInteractionNotAllowed)
        #expect(keychain.delete(item(work)) == errSecInteractionNotAllowed)
        #expect(keychain.copyMatching(item(work, "carl")).status == errSecSuccess)  // class D
        let wrong = Array("guess".utf8)
        #expect(keychain.run { SecKeychainUnlock(work, UInt32(wrong.count), wrong, true) } == errSecAuthFailed)
        #expect(keychain.run { SecKeychainUnlock(work, 0, nil, false) } == errSecInteractionNotAllowed)
        #expect(keychain.run { SecKeychainUnlock(work, UInt32(password.count), password, true) } == errSecSuccess)
        #expect(keychain.copyMatching(find).result as? Data == Data("s3cret".utf8))
    }

    @Test("create, open, delete: duplicate and missing keychains have their statuses")
    func createOpenDelete() throws {
        let work = try create("work.keychain", password: nil)
        var again: SecKeychain?
        #expect(keychain.run { SecKeychainCreate("work", 0, nil, false, nil, &again) } == errSecDuplicateKeychain)
        #expect(keychain.run { SecKeychainCreate("other", 0, nil, true, nil, &again) } == errSecInteractionNotAllowed)
        var opened: SecKeychain?
        #expect(keychain.run { SecKeychainOpen("work.keychain-db", &opened) } == errSecSuccess)
        #expect(opened == work)
        #expect(keychain.add(item(work)) == errSecSuccess)
        #expect(keychain.copyMatching(item(try #require(opened))).status == errSecSuccess)
        var missing: SecKeychain?
        #expect(keychain.run { SecKeychainOpen("nowhere", &missing) } == errSecSuccess)
        #expect(keychain.add(item(try #require(missing))) == errSecNoSuchKeychain)
        #expect(keychain.run { SecKeychainLock(missing) } == errSecNoSuchKeychain)
        #expect(keychain.run { SecKeychainDelete(work) } == errSecSuccess)
        #expect(keychain.copyMatching(item(work)).status == errSecNoSuchKeychain)
        #expect(keychain.run { SecKeychainDelete(work) } == errSecNoSuchKeychain)
        #expect(keychain.add(genericPassword().with([kSecUseKeychain as String: "work"])) == errSecParam)
    }

    @Test("the default keychain is login until SecKeychainSetDefault chooses another")
    func defaultKeychain() throws {
        var current: SecKeychain?
        #expect(keychain.run { SecKeychainCopyDefault(&current) } == errSecSuccess)
        #expect(current?.path == keychain.directory.appendingPathComponent("login.keychain-db").path)
        var buffer = [CChar](repeating: 0, count: 4096)
        var length = UInt32(buffer.count)
        #expect(keychain.run { SecKeychainGetPath(current, &length, &buffer) } == errSecSuccess)
        let written = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(written == current?.path)
        #expect(Int(length) == current?.path.utf8.count)
        let work = try create("work", password: nil)
        #expect(keychain.run { SecKeychainSetDefault(work) } == errSecSuccess)
        #expect(KeychainEnvironment.defaultKeychainName(in: keychain.directory) == "work")
        #expect(keychain.run { SecKeychainSetDefault(nil) } == errSecSuccess)
        #expect(KeychainEnvironment.defaultKeychainName(in: keychain.directory) == "login")
    }

    @Test("a default keychain record planted as a link, a FIFO, a device, a file others may read or a huge file is not used: login, at once, the planted files untouched")
    func plantedDefaultKeychainRecordIsNotUsed() throws {
        let directory = keychain.directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let record = directory.appendingPathComponent("default-keychain")
        func reset() { unlink(record.path) }
        _ = try create("work", password: nil)

        // A link to a file of the user naming another keychain: never followed.
        let target = directory.appendingPathComponent("planted")
        #expect(FileManager.default.createFile(atPath: target.path, contents: Data("work\n".utf8),
                                               attributes: [.posixPermissions: 0o600]))
        #expect(symlink(target.path, record.path) == 0)
        #expect(KeychainEnvironment.defaultKeychainName(in: directory) == "login")
        reset()
        // A link to a device that never ends.
        #expect(symlink("/dev/zero", record.path) == 0)
        #expect(KeychainEnvironment.defaultKeychainName(in: directory) == "login")
        reset()
        // A FIFO no one writes: no wait.
        #expect(mkfifo(record.path, 0o600) == 0)
        #expect(KeychainEnvironment.defaultKeychainName(in: directory) == "login")
        reset()
        // A file others may write or read was not written by the library.
        #expect(FileManager.default.createFile(atPath: record.path, contents: Data("work\n".utf8),
                                               attributes: [.posixPermissions: 0o666]))
        #expect(chmod(record.path, 0o666) == 0)
        #expect(KeychainEnvironment.defaultKeychainName(in: directory) == "login")
        reset()
        // Longer than any name: not read whole, not taken as a name.
        #expect(FileManager.default.createFile(atPath: record.path, contents: Data(repeating: 0x61, count: 1 << 20),
                                               attributes: [.posixPermissions: 0o600]))
        #expect(KeychainEnvironment.defaultKeychainName(in: directory) == "login")
        reset()
        #expect(try Data(contentsOf: target) == Data("work\n".utf8))

        // The record the library writes is still read.
        #expect(FileManager.default.createFile(atPath: record.path, contents: Data("work\n".utf8),
                                               attributes: [.posixPermissions: 0o600]))
        #expect(KeychainEnvironment.defaultKeychainName(in: directory) == "work")
    }

    @Test("the search list: the default keychain first, before its first use too, then the others by name")
    func searchList() throws {
        func names() -> [String] {
            var list: CFArray?
            #expect(keychain.run { SecKeychainCopySearchList(&list) } == errSecSuccess)
            return (list as? [SecKeychain] ?? []).map { ($0.path as NSString).lastPathComponent }
        }
        #expect(names() == ["login.keychain-db"])
        let work = try create("work", password: nil)
        _ = try create("archive", password: nil)
        #expect(names() == ["login.keychain-db", "archive.keychain-db", "work.keychain-db"])
        // With work as the default, login, never used, is not in the list.
        var list: CFArray?
        let workFirst = KeychainEnvironment(directory: keychain.directory, keychainName: "work", accessGroups: [])
        #expect(KeychainEnvironment.withValue(workFirst) { SecKeychainCopySearchList(&list) } == errSecSuccess)
        #expect((list as? [SecKeychain])?.map(\.path)
            == [work.path, keychain.directory.appendingPathComponent("archive.keychain-db").path])
    }

    @Test("changing the password: a wrong old one changes nothing; the new one unlocks", .tags(.slow))
    func changePassword() throws {
        let work = try create("work", password: password)
        #expect(keychain.add(item(work).with([kSecValueData as String: Data("s3cret".utf8)])) == errSecSuccess)
        let wrong = Array("nope".utf8), new = Array("new password".utf8)
        #expect(keychain.run { SecKeychainChangePassword(work, UInt32(wrong.count), wrong, UInt32(new.count), new) } == errSecAuthFailed)
        #expect(keychain.run { SecKeychainChangePassword(work, UInt32(password.count), password, UInt32(new.count), new) } == errSecSuccess)
        #expect(keychain.run { SecKeychainLock(work) } == errSecSuccess)
        #expect(keychain.run { SecKeychainUnlock(work, UInt32(password.count), password, true) } == errSecAuthFailed)
        #expect(keychain.run { SecKeychainUnlock(work, UInt32(new.count), new, true) } == errSecSuccess)
        #expect(keychain.copyMatching(item(work).with([kSecReturnData as String: true])).result as? Data == Data("s3cret".utf8))
    }

    @Test("kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly needs a keychain password", .tags(.slow))
    func passcodeSet() throws {
        let plain = try create("plain", password: nil)
        let akpu = [kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly]
        #expect(keychain.add(item(plain).with(akpu)) == errSecAuthFailed)
        let work = try create("work", password: password)
        #expect(keychain.add(item(work).with(akpu)) == errSecSuccess)
        #expect(keychain.run { SecKeychainChangePassword(work, UInt32(password.count), password, 0, nil) } == errSecSuccess)
        #expect(keychain.copyMatching(item(work)).status == errSecItemNotFound)
    }

    @Test("settings round-trip, and a wrong version is errSecParam")
    func settings() throws {
        let work = try create("work", password: nil)
        var settings = SecKeychainSettings()
        #expect(keychain.run { SecKeychainCopySettings(work, &settings) } == errSecSuccess)
        #expect(!settings.useLockInterval.boolValue && !settings.lockOnSleep.boolValue)
        var new = SecKeychainSettings(version: UInt32(SEC_KEYCHAIN_SETTINGS_VERS1), lockOnSleep: true,
                                      useLockInterval: true, lockInterval: 300)
        #expect(keychain.run { SecKeychainSetSettings(work, &new) } == errSecSuccess)
        var read = SecKeychainSettings()
        #expect(keychain.run { SecKeychainCopySettings(work, &read) } == errSecSuccess)
        #expect(read == new)
        var bad = SecKeychainSettings(version: 7, lockOnSleep: false, useLockInterval: false, lockInterval: 0)
        #expect(keychain.run { SecKeychainSetSettings(work, &bad) } == errSecParam)
        #expect(keychain.run { SecKeychainCopySettings(work, &bad) } == errSecParam)
    }

    /// A keychain folder reached through a link (a home folder that is a link, say), while
    /// SecKeychainCreate was given the real path: the process keeps one connection to the
    /// keychain, so it keeps SQLite's lock on it, which other processes rely on to know the
    /// keychain is in use (see DatabaseLockProbe).
    @Test("SecKeychainCreate, then SecItem calls through other paths to the keychain, use one connection")
    func oneConnectionWhateverThePath() throws {
        let real = keychain.directory
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let linked = real.deletingLastPathComponent().appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: real)
        let database = real.appendingPathComponent("work.keychain-db").path

        var created: SecKeychain?
        #expect(SecKeychainCreate(database, 0, nil, false, nil, &created) == errSecSuccess)
        try #require(try DatabaseLockProbe.isHeld(database), "the created keychain's connection holds its lock")

        // The default keychain of an environment that names the folder through the link.
        let throughLink = KeychainEnvironment(directory: linked, keychainName: "work", accessGroups: ["com.example.app"])
        #expect(KeychainEnvironment.withValue(throughLink) {
            SecItemAdd(genericPassword(account: "linked").with([kSecValueData as String: Data("a".utf8)]) as CFDictionary, nil)
        } == errSecSuccess)
        // A path through `..`, relative to the working folder.
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let relative = String(repeating: "../", count: depth) + linked.path.dropFirst() + "/../linked/work.keychain-db"
        var opened: SecKeychain?
        #expect(SecKeychainOpen(relative, &opened) == errSecSuccess)
        #expect(keychain.add(item(try #require(opened), "relative")) == errSecSuccess)

        #expect(try DatabaseLockProbe.isHeld(database), "no second connection dropped the process's lock")
        let all: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecUseKeychain as String: try #require(created),
                                  kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true]
        #expect((keychain.copyMatching(all).result as? [[String: Any]])?.count == 2)
    }

    @Test("SecKeychainLockAll locks every keychain of the folder")
    func lockAll() throws {
        let one = try create("one", password: password), two = try create("two", password: nil)
        #expect(keychain.run { SecKeychainLockAll() } == errSecSuccess)
        #expect(status(one) & kSecUnlockStateStatus == 0)
        #expect(status(two) & kSecUnlockStateStatus == 0)
    }

    @Test("issue 4: another process reads an unlocked keychain without its password, and sees a lock", .tags(.slow))
    func lockStateAcrossProcesses() throws {
        let dataHome = keychain.dataHome
        let login = try create("login", password: password)
        #expect(keychain.add(genericPassword(account: "shared").with([
            kSecAttrService as String: "helper.example.com", kSecValueData as String: Data("across".utf8),
            kSecUseKeychain as String: login,
        ])) == errSecSuccess)
        let groups = "com.example.app"
        #expect(try HelperProcess.run(["find", "shared"], dataHome: dataHome, accessGroups: groups) == "0 across")
        #expect(keychain.run { SecKeychainLock(login) } == errSecSuccess)
        #expect(try HelperProcess.run(["find", "shared"], dataHome: dataHome, accessGroups: groups) == "-25308")
        #expect(try HelperProcess.run(["unlock", "guess"], dataHome: dataHome, accessGroups: groups) == "-25293")
        #expect(try HelperProcess.run(["unlock", "open sesame"], dataHome: dataHome, accessGroups: groups) == "0")
        #expect(status(login) & kSecUnlockStateStatus != 0)
        #expect(try HelperProcess.run(["lock"], dataHome: dataHome, accessGroups: groups) == "0")
        #expect(status(login) & kSecUnlockStateStatus == 0)
        // Without the kernel keyring, as in a container that refuses it, an unlock stays in
        // the process that made it.
        #expect(keychain.run { SecKeychainUnlock(login, UInt32(password.count), password, true) } == errSecSuccess)
        let processOnly = ["KEYCHAIN_NO_KERNEL_KEYRING": "1"]
        #expect(try HelperProcess.run(["find", "shared"], dataHome: dataHome, accessGroups: groups, more: processOnly) == "-25308")
        #expect(try HelperProcess.run(["unlock", "open sesame"], dataHome: dataHome, accessGroups: groups, more: processOnly) == "0")
        #expect(try HelperProcess.run(["lock"], dataHome: dataHome, accessGroups: groups, more: processOnly) == "0")
        #expect(status(login) & kSecUnlockStateStatus != 0)
    }
}

/// Crash safety of a password change (issue 3's crash suite, for issue 4): a process that
/// changes the password again and again is killed at random moments; each time, the
/// keychain opens with the password of the last acknowledged change or of the one in flight,
/// never with neither, and its items read back intact.
@Suite struct PasswordChangeCrashTests {
    @Test("a kill during a password change leaves the old or the new password, whole", .tags(.slow))
    func killDuringPasswordChange() throws {
        let keychain = PrivateKeychain()
        var created: SecKeychain?
        let first = Array("pw-0".utf8)
        try #require(keychain.run { SecKeychainCreate("cycle", UInt32(first.count), first, false, nil, &created) } == errSecSuccess)
        let cycle = try #require(created)
        let item = genericPassword().with([kSecUseKeychain as String: cycle])
        #expect(keychain.add(item.with([kSecValueData as String: Data("kept".utf8)])) == errSecSuccess)
        // A fixed seed, so that a failing run's kill delays can be replayed.
        var generator = SeededGenerator(seed: 0x6B69_6C6C)
        var acknowledged = 0
        for _ in 0..<5 {
            let process = try HelperProcess.start(
                // Started from the password the keychain has now, not always "pw-0": one left
                // at "pw-1" by the last kill made the next helper fail at once.
                ["cycle-passwords", "cycle", String(acknowledged % 2)], dataHome: keychain.dataHome,
                accessGroups: "com.example.app")
            Thread.sleep(forTimeInterval: Double.random(in: 0.3...1.5, using: &generator))
            process.kill()
            let lines = process.readOutputToEnd().split(separator: "\n")
            // Killed while changing passwords, not ended by itself before any change.
            #expect(process.wait().signalled)
            #expect(!lines.contains { $0.hasPrefix("failed") })
            // Count the helper's changes on top of those already made.
            let done = lines.compactMap { Int($0) }.last ?? 0
            acknowledged += done
            let expected = Array("pw-\(acknowledged % 2)".utf8), inFlight = Array("pw-\((acknowledged + 1) % 2)".utf8)
            #expect(keychain.run { SecKeychainLock(cycle) } == errSecSuccess)
            let opensWithExpected = keychain.run { SecKeychainUnlock(cycle, UInt32(expected.count), expected, true) } == errSecSuccess
            let opensWithNext = !opensWithExpected
                && keychain.run { SecKeychainUnlock(cycle, UInt32(inFlight.count), inFlight, true) } == errSecSuccess
            #expect(opensWithExpected || opensWithNext)
            if opensWithNext { acknowledged += 1 }
            #expect(keychain.copyMatching(item.with([kSecReturnData as String: true])).result as? Data == Data("kept".utf8))
        }
    }
}
