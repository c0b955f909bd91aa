import Foundation
@testable import KeychainCore
import Testing
import TestSupport

/// A keychain of its own for a sync test, and the items those tests store.
struct SyncTestKeychain {
    static let group = "com.example.sync"
    let caller = CallerIdentity(accessGroups: [Self.group])
    let files: KeychainFiles
    let store: KeychainStore

    init(_ purpose: String) throws {
        let folder = TestScratch.folder(purpose)
        files = KeychainFiles(directory: folder.appendingPathComponent("keychains"), name: "sync",
                              machineSecret: folder.appendingPathComponent("machine"))
        store = try KeychainStore.open(files)
    }

    /// A generic password of `account`.
    static func password(_ account: String, synchronizable: Bool = true, _ accessibility: Accessibility = .whenUnlocked,
                         secret: String? = nil) -> NewItem {
        NewItem(itemClass: .genericPassword,
                attributes: ["acct": .string(account), "svce": .string("sync-tests"), "pdmn": .string(accessibility.rawValue)],
                isSynchronizable: synchronizable, data: Data((secret ?? "secret of \(account)").utf8))
    }

    func query(_ account: String, _ filter: SynchronizableFilter = .any, returning: ReturnOptions = []) -> ItemQuery {
        ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string(account), "svce": .string("sync-tests")],
                  synchronizable: filter, returning: returning)
    }

    /// Adds an item and returns its row id.
    @discardableResult
    func add(_ item: NewItem) throws -> Int64 {
        let found = try store.add(item, by: caller, returning: .persistentReference)
        return try #require(RowReference.location(of: found.persistentReference)).rowID
    }

    /// Every entry of the log.
    func log() throws -> [SyncLogEntry] {
        try store.syncLog(after: 0, limit: 10_000)
    }

    /// The last sequence of the log, 0 when empty.
    func lastSequence() throws -> Int64 {
        try log().last?.sequence ?? 0
    }

    /// The secret of the item of `account`, nil when there is none.
    func secret(_ account: String) throws -> String? {
        let found: [FoundItem]
        do {
            found = try store.find(query(account, returning: .data), by: caller)
        } catch {
            guard error == .itemNotFound else { throw error }
            return nil
        }
        return found.first?.data.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The attributes of the item of `account`.
    func attributes(_ account: String) throws -> [String: AttributeValue] {
        let found = try store.find(query(account, returning: .attributes), by: caller)
        return try #require(found.first?.record).attributes
    }

    /// The number of the sync log's triggers in the database: none while the log is off.
    func triggerCount() throws -> Int {
        try store.database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync_log_%'") ?? -1
        }
    }
}
