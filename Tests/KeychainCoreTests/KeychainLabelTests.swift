import Foundation
import GRDB
@testable import KeychainCore
import Testing
import TestSupport

/// A keychain's label (the Secret Service collection's Label): kept sealed in the keychain,
/// readable while it is locked, and a damaged or moved value is errSecDecode, never a wrong
/// label.
@Suite struct KeychainLabelTests {
    func files(_ purpose: String) -> KeychainFiles {
        let folder = TestScratch.folder(purpose)
        return KeychainFiles(directory: folder.appendingPathComponent("keychains"), name: "work",
                             machineSecret: folder.appendingPathComponent("machine"))
    }

    @Test func aLabelIsKeptSealedAndReadsWhileLocked() throws {
        let files = files("keychain-label")
        let store = try KeychainStore.create(files, password: Data("pw".utf8), kdf: .fastForTesting())
        #expect(try store.label() == nil)
        try store.setLabel("Work \u{2713}")
        store.lock()
        #expect(try store.label() == "Work \u{2713}")
        let stored = try store.database.read { db in try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'label'") }
        #expect(stored.map { $0.range(of: Data("Work".utf8)) == nil } == true)
        try store.setLabel(nil)
        #expect(try store.label() == nil)
    }

    @Test func aDamagedLabelIsErrSecDecode() throws {
        let store = try KeychainStore.create(files("keychain-label-damaged"), password: nil, kdf: .fastForTesting())
        try store.setLabel("Work")
        try store.database.write { db in
            try db.execute(sql: "UPDATE meta SET value = CAST(zeroblob(40) AS BLOB) WHERE key = 'label'")
        }
        #expect(throws: KeychainError.decode) { try store.label() }
        #expect(throws: KeychainError.param("a keychain's label is at most 4096 bytes")) {
            try store.setLabel(String(repeating: "x", count: 4097))
        }
    }
}
