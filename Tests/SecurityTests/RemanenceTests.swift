import Foundation
import GRDB
import KeychainProof
import Security
import Testing
import TestTags
import TestSupport

/// The remanence suite's fast sample (the long run is Scripts/remanence). Design, Storage:
/// "no superseded keybag, password row or deleted secret left in any page version of the
/// database or the WAL", and setting or changing the password rotates the class keys, so
/// that no weaker wrapping of them ever reaches a file.
@Suite struct RemanenceTests {
    /// Each kind in a keychain of its own (the long run, Scripts/remanence, chains them at
    /// random): (a) to (c) of RemanenceChecks after the call, and (d) after a password set
    /// or change: the old keybag and password row, spliced into a copy, open no newer item.
    @Test("After each kind of change, with another process holding the keychain open, no page version holds a device-wrapped class key, a superseded key or password row, or a superseded secret; an old keybag opens no newer item", .tags(.slow),
          arguments: RemanenceRun.Change.allCases)
    func eachKindOfChangeAlone(_ change: RemanenceRun.Change) throws {
        var run = RemanenceRun(executable: HelperProcess.executable, dataHome: TestScratch.folder("remanence-\(change.rawValue)"))
        run.plan = RemanenceRun.plan(for: change)
        run.checkOnlyLast = true
        run.itemsPerClass = 1
        let outcome = try run.run()
        #expect(outcome.passed, "\(outcome.problems.joined(separator: "\n"))")
        #expect(outcome.changes == [change.rawValue: 1])
    }

    @Test("The attacker's unwrap is right: every class A/C key of a keychain without a password opens with the device key, in the parsed rows and in the carved bytes")
    func attackerOpensTheKeysOfAKeychainWithoutPassword() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecValueData as String: Data("x".utf8)])) == errSecSuccess)
        let database = keychain.directory.appendingPathComponent("login.keychain-db")
        let attacker = try DeviceKeyAttacker(deviceKeyFile: keychain.directory.appendingPathComponent("login.keychain-key"))
        let live = try KeychainSnapshot(database: database)
        #expect(!live.hasPassword)
        for name in DeviceKeyAttacker.lockedClassNames {
            let row = try #require(live.keybag[name])
            #expect(attacker.opening(name: name, wrapped: row.wrapped) == row.wrapping, "\(name)")
            // Bound to its name: the same bytes do not open as another class's key.
            #expect(attacker.opening(name: name == "ak" ? "ck" : "ak", wrapped: row.wrapped) == nil)
        }
        let rows = try RowVersions(database: database)
        #expect(Set(rows.keybag.map(\.name)).isSuperset(of: DeviceKeyAttacker.lockedClassNames))
        var bytes = try FileBytes.read(database)
        bytes += (try? FileBytes.read(URL(fileURLWithPath: database.path + "-wal"))) ?? []
        #expect(Set(attacker.carve(bytes).map(\.name)) == Set(DeviceKeyAttacker.lockedClassNames))
    }

    @Test("A keychain's live class A/C keys do not open with the device key once it has a password")
    func liveKeysOfAKeychainWithPasswordNeedThePassword() throws {
        let keychain = PrivateKeychain()
        let password = Array("open sesame".utf8)
        var created: SecKeychain?
        try #require(keychain.run { SecKeychainCreate("guarded", UInt32(password.count), password, false, nil, &created) } == errSecSuccess)
        let live = try KeychainSnapshot(database: keychain.directory.appendingPathComponent("guarded.keychain-db"))
        let attacker = try DeviceKeyAttacker(deviceKeyFile: keychain.directory.appendingPathComponent("guarded.keychain-key"))
        #expect(live.hasPassword)
        for name in DeviceKeyAttacker.lockedClassNames {
            let row = try #require(live.keybag[name])
            #expect(attacker.opening(name: name, wrapped: row.wrapped) == nil, "\(name)")
        }
    }

    @Test("The checks report nothing once the files hold only live data (VACUUM, then checkpoint(TRUNCATE)): they find what was superseded, not what is live")
    func checksFindNothingInFilesWithOnlyLiveData() throws {
        let keychain = PrivateKeychain(accessGroups: [RemanenceRun.accessGroup])
        let name = "rewritten"
        let database = keychain.directory.appendingPathComponent("\(name).keychain-db")
        let password = Array("pw-one".utf8), next = Array("pw-two".utf8)
        var created: SecKeychain?
        try #require(keychain.run { SecKeychainCreate(name, UInt32(password.count), password, false, nil, &created) } == errSecSuccess)
        let use = [kSecUseKeychain as String: try #require(created)]
        for index in 0..<6 {
            #expect(keychain.add(genericPassword(account: "a\(index)").with(use).with([
                kSecValueData as String: Data("secret number \(index) of the rewritten keychain".utf8)])) == errSecSuccess)
        }
        let before = try KeychainSnapshot(database: database)
        #expect(keychain.run { SecKeychainChangePassword(created, UInt32(password.count), password, UInt32(next.count), next) } == errSecSuccess)
        #expect(keychain.delete(genericPassword(account: "a0").with(use)) == errSecSuccess)
        #expect(keychain.update(genericPassword(account: "a1").with(use),
                                [kSecValueData as String: Data("a new secret for the second item, long enough".utf8)]) == errSecSuccess)
        // What a core that leaves nothing behind would leave: only the live pages.
        let queue = try DatabaseQueue(path: database.path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "VACUUM")
            _ = try db.checkpoint(.truncate)
        }
        try queue.close()
        let after = try KeychainSnapshot(database: database)
        let attacker = try DeviceKeyAttacker(deviceKeyFile: keychain.directory.appendingPathComponent("\(name).keychain-key"))
        let findings = try RemanenceChecks.check(name: name, folder: keychain.directory, before: before, after: after, attacker: attacker)
        #expect(findings.problems.isEmpty, "\(findings.problems)")
        #expect(findings.keybagVersions >= DeviceKeyAttacker.lockedClassNames.count)
        #expect(findings.supersededBlobs >= 2)
    }
}
