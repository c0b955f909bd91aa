import Foundation
import GRDB
@testable import KeychainCore
import Testing
import TestSupport

/// Schema format 5 (KeychainSchema): the sync log's table and flag, added to a format 4
/// keychain at open, with the log off.
@Suite struct SyncSchemaTests {
    @Test("Format 5: a format 4 keychain is migrated at open (its items kept), records the current format, and its sync log starts off and works")
    func format4IsMigrated() throws {
        let keychain = try SyncTestKeychain("sync-schema-format-4")
        let row = try keychain.add(SyncTestKeychain.password("alice"))
        keychain.store.close()
        // Back to what a format 4 library wrote: no log table, no flag, v5 not applied.
        let queue = try DatabaseQueue(path: keychain.files.database.path)
        try OlderFormat.rewrite(queue, as: 4)
        try queue.close()
        let reopened = try KeychainStore.open(keychain.files)
        defer { reopened.close() }
        #expect(try reopened.database.read { try Int.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'format'") }
                == KeychainSchema.formatVersion)
        #expect(try reopened.isSyncLogOn() == false)
        try reopened.startSyncLog()
        #expect(try reopened.syncLog(after: 0, limit: 10).map(\.rowID) == [row])
        #expect(try reopened.syncedItem(rowID: row)?.secret == Data("secret of alice".utf8))
    }
}
