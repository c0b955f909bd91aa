import Foundation
@testable import KeychainCore
import Testing
import TestSupport

/// Applying a batch of remote changes (sync contract, KeychainCore/Sync): one transaction for
/// the batch, each change by the rules of the single forms, `knownLog` included, and nothing
/// half-applied.
@Suite struct SyncBatchApplyTests {
    static func remote(_ account: String, secret: String, _ accessibility: Accessibility = .whenUnlocked) -> SyncedItem {
        var item = SyncApplyTests.remote(account, secret: secret, modified: Date(timeIntervalSince1970: 1_700_000_000))
        item.attributes["pdmn"] = .string(accessibility.rawValue)
        return item
    }

    @Test("Batch apply: inserts, replaces by identity and deletes in order, in one transaction, with the single forms' results and no log entry")
    func batchAppliesInOneTransaction() throws {
        let keychain = try SyncTestKeychain("sync-batch-apply")
        let carol = try keychain.add(SyncTestKeychain.password("carol"))
        let dave = try keychain.add(SyncTestKeychain.password("dave"))
        try keychain.store.startSyncLog()
        let known = try keychain.lastSequence()
        let batchesBefore = keychain.store.commits.batchCount
        let results = try keychain.store.applySynced([
            .item(Self.remote("alice", secret: "alice 1")),
            .item(Self.remote("carol", secret: "carol remote")),
            .deletion(Self.remote("dave", secret: "")),
            .deletion(Self.remote("nobody", secret: "")),
            // The same identity later in the batch: the later change wins, as applied in order.
            .item(Self.remote("alice", secret: "alice 2")),
        ], knownLog: known)
        #expect(results.count == 5)
        guard case .applied(let alice) = results[0] else { Issue.record("alice not applied: \(results)"); return }
        #expect(results[1] == .applied(rowID: carol))
        #expect(results[2] == .deleted)
        #expect(results[3] == .absent)
        #expect(results[4] == .applied(rowID: alice))
        // One synced commit for the whole batch.
        #expect(keychain.store.commits.batchCount == batchesBefore + 1)
        #expect(try keychain.secret("alice") == "alice 2")
        #expect(try keychain.secret("carol") == "carol remote")
        #expect(try keychain.secret("dave") == nil)
        #expect(try keychain.store.syncedItem(rowID: dave) == nil)
        // Applied changes are never logged: they would be sent back where they came from.
        #expect(try keychain.lastSequence() == known)
    }

    @Test("Batch apply: a change over a local change not read yet is .changedLocally, writes nothing, and ends the batch there (later changes unwritten)")
    func batchStopsAtChangedLocally() throws {
        let keychain = try SyncTestKeychain("sync-batch-conflict")
        try keychain.store.startSyncLog()
        try keychain.add(SyncTestKeychain.password("bob"))
        let known = try keychain.lastSequence()
        try keychain.store.update(keychain.query("bob"), with: ItemChanges(data: Data("local edit".utf8)), by: keychain.caller)
        let results = try keychain.store.applySynced([
            .item(Self.remote("alice", secret: "remote alice")),
            .item(Self.remote("bob", secret: "remote bob")),
            .item(Self.remote("carol", secret: "remote carol")),
        ], knownLog: known)
        #expect(results.count == 2)
        #expect(results.last == .changedLocally)
        #expect(try keychain.secret("alice") == "remote alice")
        #expect(try keychain.secret("bob") == "local edit")
        #expect(try keychain.secret("carol") == nil)
    }

    @Test("Batch apply: a change sync cannot carry is errSecParam and nothing of the batch is written (no half-applied batch)")
    func batchRefusesWholly() throws {
        let keychain = try SyncTestKeychain("sync-batch-refuse")
        let good = Self.remote("alice", secret: "s")
        let local = Self.remote("bob", secret: "s", .alwaysThisDeviceOnly)
        #expect(throws: KeychainError.self) {
            try keychain.store.applySynced([.item(good), .item(local)], knownLog: 0)
        }
        #expect(try keychain.secret("alice") == nil)
        #expect(try keychain.secret("bob") == nil)
        #expect(try keychain.store.applySynced([], knownLog: 0).isEmpty)
    }

    @Test("Batch apply: the batch ends before the first item whose class key is locked; errSecInteractionNotAllowed when it is the first")
    func batchStopsAtLockedClass() throws {
        let keychain = try SyncTestKeychain("sync-batch-locked")
        try keychain.store.changePassword(from: nil, to: Data("pw".utf8), kdf: .fastForTesting())
        keychain.store.lock()
        let results = try keychain.store.applySynced([
            .item(Self.remote("always", secret: "class D", .always)),
            .item(Self.remote("unlocked", secret: "class A", .whenUnlocked)),
            .item(Self.remote("later", secret: "class D again", .always)),
        ], knownLog: 0)
        #expect(results.count == 1)
        guard case .applied = results.first else { Issue.record("not applied: \(results)"); return }
        #expect(throws: KeychainError.interactionNotAllowed) {
            try keychain.store.applySynced([.item(Self.remote("unlocked", secret: "class A"))], knownLog: 0)
        }
        try keychain.store.unlock(password: Data("pw".utf8))
        #expect(try keychain.secret("always") == "class D")
        #expect(try keychain.secret("unlocked") == nil)
        #expect(try keychain.secret("later") == nil)
    }

    @Test("Batch read: the rows in the order asked, each as syncedItem(rowID:) reads it; the batch ends before the first row whose class key is locked, errSecInteractionNotAllowed when it is the first")
    func batchReadEndsBeforeALockedRow() throws {
        let keychain = try SyncTestKeychain("sync-batch-read")
        let always = try keychain.add(SyncTestKeychain.password("always", .always, secret: "class D"))
        let local = try keychain.add(SyncTestKeychain.password("local", synchronizable: false, .always))
        let unlocked = try keychain.add(SyncTestKeychain.password("unlocked", .whenUnlocked, secret: "class A"))
        let later = try keychain.add(SyncTestKeychain.password("later", .always, secret: "class D again"))
        let gone = later + 100
        let order = [later, gone, local, always, unlocked, later]
        let read = try keychain.store.syncedItems(rowIDs: order)
        #expect(read.count == order.count)
        for (rowID, item) in zip(order, read) { #expect(item == (try keychain.store.syncedItem(rowID: rowID))) }
        #expect(read.map { $0?.secret.map { String(decoding: $0, as: UTF8.self) } }
                == ["class D again", nil, nil, "class D", "class A", "class D again"])

        try keychain.store.changePassword(from: nil, to: Data("pw".utf8), kdf: .fastForTesting())
        keychain.store.lock()
        let prefix = try keychain.store.syncedItems(rowIDs: [always, local, unlocked, later])
        #expect(prefix.map { $0?.secret.map { String(decoding: $0, as: UTF8.self) } } == ["class D", nil])
        #expect(throws: KeychainError.interactionNotAllowed) { try keychain.store.syncedItems(rowIDs: [unlocked, later]) }
        #expect(try keychain.store.syncedItems(rowIDs: []).isEmpty)
    }
}
