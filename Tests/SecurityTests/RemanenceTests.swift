import Foundation
import KeychainProof
import Security
import Testing
import TestSupport

/// The remanence suite's fast sample (the long run is Scripts/remanence). Design, Storage:
/// "no superseded keybag, password row or deleted secret left in any page version of the
/// database or the WAL", and setting or changing the password rotates the class keys, so
/// that no weaker wrapping of them ever reaches a file.
@Suite struct RemanenceTests {
    @Test("After each kind of change, with another process holding the keychain open, no page version holds a device-wrapped class key, a superseded key or password row, or a superseded secret; an old keybag opens no newer item")
    func eachKindOfChangeLeavesNothingBehind() throws {
        let run = RemanenceRun(executable: HelperProcess.executable, dataHome: TestScratch.folder("remanence"))
        let outcome = try run.run()
        // The report names each change and what remained after it (a, b, c, d as in RemanenceChecks).
        #expect(outcome.passed, "\(outcome.problems.joined(separator: "\n"))")
        #expect(outcome.changes.count == RemanenceRun.Change.allCases.count, "\(outcome.totals)")
        #expect(outcome.attacks == 2)
        #expect(outcome.supersededBlobs > 0)
    }

    @Test("The attacker's unwrap is right: every class A/C key of a keychain without a password opens with the device key, in the parsed rows and in the carved bytes")
    func attackerOpensTheKeysOfAKeychainWithoutPassword() throws {
        let keychain = TestKeychain()
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
        let keychain = TestKeychain()
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
}
