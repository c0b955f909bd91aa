import Foundation
import GRDB
@testable import KeychainCore
import Testing
import TestSupport

/// The sync change log (sync contract, KeychainCore/Sync): off by default; when on, every
/// local change to a synchronizable item that is not ThisDeviceOnly is logged in the same
/// transaction as the change, and nothing else is.
@Suite struct SyncLogTests {
    @Test("Sync log: off by default, nothing is logged and no sync trigger costs a write anything")
    func offByDefault() throws {
        let keychain = try SyncTestKeychain("sync-log-off")
        #expect(try keychain.store.isSyncLogOn() == false)
        let row = try keychain.add(SyncTestKeychain.password("alice"))
        try keychain.store.update(keychain.query("alice"), with: ItemChanges(data: Data("new".utf8)), by: keychain.caller)
        try keychain.store.delete(keychain.query("alice"), by: keychain.caller)
        #expect(row > 0)
        #expect(try keychain.log().isEmpty)
        #expect(try keychain.triggerCount() == 0)
    }

    @Test("Sync log on: an add, an update and a delete of a synchronizable item each log its row once, in order")
    func addUpdateDeleteAreLogged() throws {
        let keychain = try SyncTestKeychain("sync-log-on")
        try keychain.store.startSyncLog()
        #expect(try keychain.store.isSyncLogOn())
        let before = UInt64(Date().timeIntervalSince1970 * 1000)
        let row = try keychain.add(SyncTestKeychain.password("alice"))
        #expect(try keychain.log().map(\.rowID) == [row])
        try keychain.store.update(keychain.query("alice"), with: ItemChanges(data: Data("new".utf8)), by: keychain.caller)
        #expect(try keychain.log().map(\.rowID) == [row, row])
        // A delete that opens the row, and one the columns decide alone.
        try keychain.store.delete(keychain.query("alice"), by: keychain.caller)
        let other = try keychain.add(SyncTestKeychain.password("bob"))
        try keychain.store.delete(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("bob")],
                                            synchronizable: .synchronizable), by: keychain.caller)
        let log = try keychain.log()
        #expect(log.map(\.rowID) == [row, row, row, other, other])
        #expect(log.map(\.sequence) == log.map(\.sequence).sorted() && Set(log.map(\.sequence)).count == log.count)
        let after = UInt64(Date().timeIntervalSince1970 * 1000)
        // The time is the change's, in milliseconds since 1970 (SQLite's clock, within a second).
        #expect(log.allSatisfy { $0.changedAt + 1_000 >= before && $0.changedAt <= after + 1_000 })
    }

    @Test("Sync log: a failed add (a duplicate) logs nothing: the entry is in the change's transaction")
    func failedChangeLogsNothing() throws {
        let keychain = try SyncTestKeychain("sync-log-failed")
        try keychain.store.startSyncLog()
        try keychain.add(SyncTestKeychain.password("alice"))
        let logged = try keychain.log()
        #expect(throws: KeychainError.duplicateItem) { try keychain.add(SyncTestKeychain.password("alice")) }
        // An update that matches nothing fails too.
        #expect(throws: KeychainError.itemNotFound) {
            try keychain.store.update(keychain.query("nobody"), with: ItemChanges(data: Data("x".utf8)), by: keychain.caller)
        }
        #expect(try keychain.log() == logged)
    }

    @Test("Sync log: items that are not synchronizable, and ThisDeviceOnly ones, are never logged",
          arguments: [(false, Accessibility.whenUnlocked), (true, .whenUnlockedThisDeviceOnly),
                      (true, .afterFirstUnlockThisDeviceOnly), (true, .alwaysThisDeviceOnly)])
    func itemsThatDoNotSyncAreNotLogged(synchronizable: Bool, accessibility: Accessibility) throws {
        let keychain = try SyncTestKeychain("sync-log-local")
        try keychain.store.startSyncLog()
        let row = try keychain.add(SyncTestKeychain.password("local", synchronizable: synchronizable, accessibility))
        try keychain.store.update(keychain.query("local"), with: ItemChanges(data: Data("new".utf8)), by: keychain.caller)
        try keychain.store.update(keychain.query("local"), with: ItemChanges(attributes: ["labl": .string("l")]),
                                  by: keychain.caller)
        try keychain.store.delete(keychain.query("local"), by: keychain.caller)
        #expect(try keychain.log().isEmpty)
        #expect(try keychain.store.syncedItem(rowID: row) == nil)
    }

    @Test("Sync log: an update that makes a logged item stop syncing (sync flag cleared, or ThisDeviceOnly) logs it, and the row then reads as not synced",
          arguments: [["sync": AttributeValue.number(0)], ["pdmn": .string(Accessibility.whenUnlockedThisDeviceOnly.rawValue)]])
    func stoppingToSyncIsLogged(change: [String: AttributeValue]) throws {
        let keychain = try SyncTestKeychain("sync-log-stop")
        let row = try keychain.add(SyncTestKeychain.password("alice"))
        try keychain.store.startSyncLog()
        let started = try keychain.lastSequence()
        try keychain.store.update(keychain.query("alice"), with: ItemChanges(attributes: change), by: keychain.caller)
        let entries = try keychain.store.syncLog(after: started, limit: 10)
        #expect(!entries.isEmpty && entries.allSatisfy { $0.rowID == row })
        #expect(try keychain.store.syncedItem(rowID: row) == nil)
        // And turning it back on is logged as well.
        let off = try keychain.lastSequence()
        let back: [String: AttributeValue] = change["sync"] != nil ? ["sync": .number(1)]
            : ["pdmn": .string(Accessibility.whenUnlocked.rawValue)]
        try keychain.store.update(keychain.query("alice"), with: ItemChanges(attributes: back), by: keychain.caller)
        #expect(try keychain.store.syncLog(after: off, limit: 10).map(\.rowID).contains(row))
        #expect(try keychain.store.syncedItem(rowID: row)?.secret == Data("secret of alice".utf8))
    }

    @Test("Sync log: turning it on logs every existing synchronizable row once, and again changes nothing")
    func startLogsExistingRowsOnce() throws {
        let keychain = try SyncTestKeychain("sync-log-start")
        let first = try keychain.add(SyncTestKeychain.password("a"))
        let second = try keychain.add(SyncTestKeychain.password("b"))
        try keychain.add(SyncTestKeychain.password("c", synchronizable: false))
        try keychain.add(SyncTestKeychain.password("d", .alwaysThisDeviceOnly))
        try keychain.store.startSyncLog()
        #expect(try keychain.log().map(\.rowID) == [first, second])
        try keychain.store.startSyncLog()
        #expect(try keychain.log().map(\.rowID) == [first, second])
        #expect(try keychain.triggerCount() == 3)
        // What `sync status` shows as not sent: counted without reading the entries.
        let entries = try keychain.log()
        #expect(try keychain.store.syncLogCount(after: 0) == 2)
        #expect(try keychain.store.syncLogCount(after: try #require(entries.first).sequence) == 1)
        #expect(try keychain.store.syncLogCount(after: try #require(entries.last).sequence) == 0)
    }

    @Test("Sync log: stop turns it off and empties it; sequences never go back when it is turned on again; removeSyncLog(through:) trims")
    func stopAndTrim() throws {
        let keychain = try SyncTestKeychain("sync-log-stop-trim")
        try keychain.store.startSyncLog()
        try keychain.add(SyncTestKeychain.password("a"))
        try keychain.add(SyncTestKeychain.password("b"))
        let highest = try keychain.lastSequence()
        try keychain.store.stopSyncLog()
        #expect(try keychain.store.isSyncLogOn() == false)
        #expect(try keychain.log().isEmpty)
        #expect(try keychain.triggerCount() == 0)
        try keychain.add(SyncTestKeychain.password("c"))
        #expect(try keychain.log().isEmpty)
        try keychain.store.startSyncLog()
        let restarted = try keychain.log()
        #expect(restarted.count == 3 && restarted.allSatisfy { $0.sequence > highest })
        try keychain.store.removeSyncLog(through: restarted[1].sequence)
        #expect(try keychain.log() == [restarted[2]])
        #expect(try keychain.store.syncLog(after: restarted[2].sequence, limit: 5).isEmpty)
        #expect(throws: KeychainError.self) { try keychain.store.syncLog(after: 0, limit: 0) }
    }

    @Test("Sync log: the log follows other processes' changes at once (the triggers are in the database, not in a cached flag)")
    func anotherConnectionSeesTheLogOn() throws {
        let keychain = try SyncTestKeychain("sync-log-two-stores")
        // A second connection to the same database, as another process has.
        let other = try KeychainStore.open(keychain.files)
        defer { other.close() }
        _ = try other.add(SyncTestKeychain.password("before"), by: keychain.caller)
        try keychain.store.startSyncLog()
        let found = try other.add(SyncTestKeychain.password("after"), by: keychain.caller, returning: .persistentReference)
        let rowID = try #require(RowReference.location(of: found.persistentReference)).rowID
        #expect(try keychain.log().map(\.rowID).last == rowID)
        #expect(try keychain.log().count == 2)
    }

    @Test("Sync log: a password change reseals every item but logs none (the items do not change)")
    func resealingIsNotLogged() throws {
        let keychain = try SyncTestKeychain("sync-log-reseal")
        try keychain.add(SyncTestKeychain.password("a"))
        try keychain.add(SyncTestKeychain.password("b", .afterFirstUnlock))
        try keychain.store.startSyncLog()
        let logged = try keychain.log()
        try keychain.store.changePassword(from: nil, to: Data("new password".utf8), kdf: .fastForTesting())
        #expect(try keychain.log() == logged)
        #expect(try keychain.store.isSyncLogOn())
        // The items were resealed (they still open), and later changes are logged again.
        #expect(try keychain.secret("a") == "secret of a")
        try keychain.store.update(keychain.query("a"), with: ItemChanges(data: Data("x".utf8)), by: keychain.caller)
        #expect(try keychain.log().count == logged.count + 1)
    }

    @Test("Sync log: an archive import logs the synchronizable items it adds, and those it replaces")
    func importIsLogged() throws {
        let source = try SyncTestKeychain("sync-log-import-source")
        try source.add(SyncTestKeychain.password("a"))
        try source.add(SyncTestKeychain.password("local", synchronizable: false))
        let archive = try source.store.exportArchive(password: Data("archive".utf8), kdf: .fastForTesting()).archive
        let target = try SyncTestKeychain("sync-log-import-target")
        try target.store.startSyncLog()
        _ = try target.store.importArchive(archive, password: Data("archive".utf8), policy: .failOnDuplicate)
        let imported = try target.log()
        #expect(imported.count == 1)
        _ = try target.store.importArchive(archive, password: Data("archive".utf8), policy: .replaceExisting)
        // The replaced row's deletion, then the new row.
        let replaced = try target.store.syncLog(after: imported[0].sequence, limit: 10)
        #expect(replaced.count == 2 && replaced[0].rowID == imported[0].rowID)
        #expect(try target.store.syncedItem(rowID: replaced[1].rowID)?.secret == Data("secret of a".utf8))
    }
}
