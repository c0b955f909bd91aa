import Foundation
import GRDB
@testable import KeychainCore
import Testing
import TestSupport

/// Applying remote changes (sync contract, KeychainCore/Sync): by identity, with the
/// record's dates, sealed like any add, never logged, and never over a local change the
/// agent has not read yet (`knownLog`).
@Suite struct SyncApplyTests {
    /// A remote copy of the item of `account`, as another member would send it.
    static func remote(_ account: String, secret: String, modified: Date,
                       created: Date = Date(timeIntervalSince1970: 1_600_000_000)) -> SyncedItem {
        SyncedItem(itemClass: .genericPassword, attributes: [
            "acct": .string(account), "svce": .string("sync-tests"), "agrp": .string(SyncTestKeychain.group),
            "pdmn": .string(Accessibility.whenUnlocked.rawValue), "sync": .number(1),
            "cdat": .date(created), "mdat": .date(modified), "labl": .string("from elsewhere"),
        ], secret: Data(secret.utf8))
    }

    @Test("Apply: a new remote item is inserted with its own cdat and mdat, findable as synchronizable, and writes no log entry")
    func applyInserts() throws {
        let keychain = try SyncTestKeychain("sync-apply-insert")
        try keychain.store.startSyncLog()
        let modified = Date(timeIntervalSince1970: 1_700_000_000.25)
        let result = try keychain.store.applySyncedItem(Self.remote("alice", secret: "remote", modified: modified), knownLog: 0)
        guard case .applied(let rowID) = result else { Issue.record("not applied: \(result)"); return }
        #expect(try keychain.secret("alice") == "remote")
        let attributes = try keychain.attributes("alice")
        #expect(attributes["mdat"] == .date(modified))
        #expect(attributes["cdat"] == .date(Date(timeIntervalSince1970: 1_600_000_000)))
        #expect(attributes["labl"] == .string("from elsewhere"))
        #expect(try keychain.store.find(keychain.query("alice", .synchronizable), by: keychain.caller).count == 1)
        #expect(try keychain.log().isEmpty)
        // What the store reads back for sync is what was applied.
        #expect(try keychain.store.syncedItem(rowID: rowID) == Self.remote("alice", secret: "remote", modified: modified))
    }

    @Test("Apply: a new remote item never takes the id of a row whose local change the agent has not read (it would read that row as the remote item and never send the delete)")
    func applyLeavesTheIdsOfRowsWithUnreadChanges() throws {
        let keychain = try SyncTestKeychain("sync-apply-row-reuse")
        try keychain.store.startSyncLog()
        let rowID = try keychain.add(SyncTestKeychain.password("alice"))
        let known = try keychain.lastSequence()
        try keychain.store.delete(keychain.query("alice"), by: keychain.caller)
        let result = try keychain.store.applySyncedItem(Self.remote("bob", secret: "remote", modified: Date()), knownLog: known)
        guard case .applied(let newRowID) = result else { Issue.record("not applied: \(result)"); return }
        #expect(newRowID > rowID)
        #expect(try keychain.store.syncedItem(rowID: rowID) == nil)
        #expect(try keychain.secret("bob") == "remote")
        // Once the log is read, ids go on from the highest row as before.
        try keychain.store.removeSyncLog(through: keychain.lastSequence())
        try keychain.store.delete(keychain.query("bob"), by: keychain.caller)
        try keychain.store.removeSyncLog(through: keychain.lastSequence())
        #expect(try keychain.store.applySyncedItem(Self.remote("carol", secret: "remote", modified: Date()),
                                                   knownLog: keychain.lastSequence()) == .applied(rowID: rowID))
    }

    @Test("Apply: a remote item replaces the row with its identity, in place (same row, same persistent reference), with the record's mdat; no log entry")
    func applyReplacesByIdentity() throws {
        let keychain = try SyncTestKeychain("sync-apply-replace")
        let added = try keychain.store.add(SyncTestKeychain.password("alice"), by: keychain.caller, returning: .persistentReference)
        let rowID = try #require(RowReference.location(of: added.persistentReference)).rowID
        try keychain.store.startSyncLog()
        let known = try keychain.lastSequence()
        let modified = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try keychain.store.applySyncedItem(Self.remote("alice", secret: "newer", modified: modified), knownLog: known)
            == .applied(rowID: rowID))
        #expect(try keychain.secret("alice") == "newer")
        #expect(try keychain.attributes("alice")["mdat"] == .date(modified))
        #expect(try keychain.log().count == 1)
        let byReference = try keychain.store.find(
            ItemQuery(itemClass: .genericPassword, persistentReference: added.persistentReference, returning: .data),
            by: keychain.caller)
        #expect(byReference.first?.data == Data("newer".utf8))
    }

    @Test("Apply: a local synchronizable item of a ThisDeviceOnly class is left alone by a remote item or tombstone of its identity (.absent)")
    func thisDeviceOnlyItemsAreLeftAlone() throws {
        let keychain = try SyncTestKeychain("sync-apply-this-device-only")
        try keychain.add(SyncTestKeychain.password("alice", .whenUnlockedThisDeviceOnly, secret: "local only"))
        try keychain.store.startSyncLog()
        let known = try keychain.lastSequence()
        let remote = Self.remote("alice", secret: "remote", modified: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(try keychain.store.applySyncedItem(remote, knownLog: known) == .absent)
        #expect(try keychain.secret("alice") == "local only")
        #expect(try keychain.store.applySyncedDeletion(remote, knownLog: known) == .absent)
        #expect(try keychain.secret("alice") == "local only")
    }

    @Test("Apply: .changedLocally, and nothing written, when the log holds a newer local change of the row or of its identity (also a local delete)")
    func changedLocallyWins() throws {
        let keychain = try SyncTestKeychain("sync-apply-conflict")
        try keychain.store.startSyncLog()
        try keychain.add(SyncTestKeychain.password("alice"))
        let known = try keychain.lastSequence()
        try keychain.store.update(keychain.query("alice"), with: ItemChanges(data: Data("local edit".utf8)), by: keychain.caller)
        let remote = Self.remote("alice", secret: "remote", modified: Date())
        #expect(try keychain.store.applySyncedItem(remote, knownLog: known) == .changedLocally)
        #expect(try keychain.secret("alice") == "local edit")
        #expect(try keychain.store.applySyncedDeletion(remote, knownLog: known) == .changedLocally)
        #expect(try keychain.secret("alice") == "local edit")
        // Once the agent has read the local change, the remote one applies.
        let read = try keychain.lastSequence()
        guard case .applied = try keychain.store.applySyncedItem(remote, knownLog: read) else {
            Issue.record("not applied"); return
        }
        #expect(try keychain.secret("alice") == "remote")
        // A local delete not read yet: the row is gone, its identity is in the log.
        try keychain.store.delete(keychain.query("alice"), by: keychain.caller)
        #expect(try keychain.store.applySyncedItem(remote, knownLog: read) == .changedLocally)
        #expect(try keychain.secret("alice") == nil)
    }

    @Test("Apply: a local rename not read yet (the item moved to another identity) makes a remote change of the old identity .changedLocally")
    func localRenameWins() throws {
        let keychain = try SyncTestKeychain("sync-apply-rename")
        try keychain.store.startSyncLog()
        try keychain.add(SyncTestKeychain.password("alice"))
        let known = try keychain.lastSequence()
        try keychain.store.update(keychain.query("alice"), with: ItemChanges(attributes: ["acct": .string("carol")]),
                                  by: keychain.caller)
        let remote = Self.remote("alice", secret: "remote", modified: Date())
        #expect(try keychain.store.applySyncedItem(remote, knownLog: known) == .changedLocally)
        #expect(try keychain.secret("alice") == nil)
        #expect(try keychain.secret("carol") == "secret of alice")
    }

    @Test("Apply deletion: the row with the tombstone's identity is deleted (no log entry), .absent when there is none; no page of the database or WAL keeps its sealed bytes")
    func applyDeletionRemovesEveryTrace() throws {
        let keychain = try SyncTestKeychain("sync-apply-delete")
        let rowID = try keychain.add(SyncTestKeychain.password("alice", secret: "the deleted secret"))
        try keychain.add(SyncTestKeychain.password("bob"))
        try keychain.store.startSyncLog()
        let known = try keychain.lastSequence()
        let sealed = try keychain.store.database.read { db in
            try Row.fetchOne(db, sql: "SELECT attributes, secret FROM item WHERE id = ?", arguments: [rowID])
        }
        let sealedAttributes: Data = try #require(sealed?["attributes"])
        let sealedSecret: Data = try #require(sealed?["secret"])
        // The tombstone as another member sends it: the identity's attributes, no secret.
        let full = try #require(try keychain.store.syncedItem(rowID: rowID))
        let tombstone = try SyncedItem(serialized: full.serialized(includingSecret: false))
        #expect(try keychain.store.applySyncedDeletion(tombstone, knownLog: known) == .deleted)
        #expect(try keychain.secret("alice") == nil)
        #expect(try keychain.secret("bob") == "secret of bob")
        #expect(try keychain.lastSequence() == known)
        #expect(try keychain.store.applySyncedDeletion(tombstone, knownLog: known) == .absent)
        // secure_delete and the scrub of the log after a delete: neither sealed part is left.
        var files = try Data(contentsOf: keychain.files.database)
        files += (try? Data(contentsOf: URL(fileURLWithPath: keychain.files.database.path + "-wal"))) ?? Data()
        #expect(files.range(of: sealedSecret) == nil)
        #expect(files.range(of: sealedAttributes) == nil)
    }

    @Test("Apply: keys and certificates apply too, and are found by their lookup columns (tag, label, public-key hash)")
    func keysAndCertificates() throws {
        let keychain = try SyncTestKeychain("sync-apply-keys")
        let key = SyncedItemTests.item(.key)
        let certificate = SyncedItemTests.item(.certificate)
        guard case .applied(let keyRow) = try keychain.store.applySyncedItem(key, knownLog: 0),
              case .applied(let certificateRow) = try keychain.store.applySyncedItem(certificate, knownLog: 0) else {
            Issue.record("not applied"); return
        }
        let byTag = try keychain.store.find(ItemQuery(itemClass: .key, attributes: ["atag": .data(Data("com.example.key".utf8))],
                                                      synchronizable: .any, returning: .data), by: keychain.caller)
        #expect(byTag.first?.data == key.secret)
        let byHash = try keychain.store.find(ItemQuery(itemClass: .certificate, attributes: ["pkhh": .data(Data(repeating: 7, count: 20))],
                                                       synchronizable: .any, returning: .data), by: keychain.caller)
        #expect(byHash.first?.data == certificate.secret)
        #expect(try keychain.store.syncedItem(rowID: keyRow) == key)
        #expect(try keychain.store.syncedItem(rowID: certificateRow) == certificate)
        // Applied again with another secret: the same row.
        var newer = key
        newer.secret = Data("another private key".utf8)
        #expect(try keychain.store.applySyncedItem(newer, knownLog: 0) == .applied(rowID: keyRow))
    }

    @Test("Apply: what sync cannot carry is errSecParam and writes nothing (no secret, not synchronizable, ThisDeviceOnly, an unknown attribute)")
    func applyRefusesWhatDoesNotSync() throws {
        let keychain = try SyncTestKeychain("sync-apply-refuse")
        let good = Self.remote("alice", secret: "s", modified: Date())
        var noSecret = good
        noSecret.secret = nil
        var notSync = good
        notSync.attributes["sync"] = .number(0)
        var local = good
        local.attributes["pdmn"] = .string(Accessibility.alwaysThisDeviceOnly.rawValue)
        var unknown = good
        unknown.attributes["zzzz"] = .string("x")
        for item in [noSecret, notSync, local, unknown] {
            #expect(throws: KeychainError.self) { try keychain.store.applySyncedItem(item, knownLog: 0) }
        }
        #expect(try keychain.secret("alice") == nil)
    }

    @Test("Apply: a locked class key is errSecInteractionNotAllowed (the agent retries after an unlock), and syncedItem(rowID:) too")
    func lockedClassIsInteractionNotAllowed() throws {
        let keychain = try SyncTestKeychain("sync-apply-locked")
        let rowID = try keychain.add(SyncTestKeychain.password("alice"))
        try keychain.store.changePassword(from: nil, to: Data("pw".utf8), kdf: .fastForTesting())
        keychain.store.lock()
        #expect(throws: KeychainError.interactionNotAllowed) { try keychain.store.syncedItem(rowID: rowID) }
        #expect(throws: KeychainError.interactionNotAllowed) {
            try keychain.store.applySyncedItem(Self.remote("bob", secret: "s", modified: Date()), knownLog: 0)
        }
    }
}
