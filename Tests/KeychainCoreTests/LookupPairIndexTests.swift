import Foundation
import GRDB
@testable import KeychainCore
import Testing
import TestSupport

/// Format 6 (KeychainSchema, LookupPairTable): a generic password whose generic data begins
/// with a lookup attribute set (what the Secret Service provider stores) is found by any of
/// its attributes through their keyed hashes, without opening an item, also while locked;
/// the index follows every add, update and delete, holds no name or value in the clear, and
/// a format 5 keychain is migrated and its items indexed once their class key is at hand.
@Suite struct LookupPairIndexTests {
    static let marker = "pairmarker7Q"

    /// A generic password of `account` whose generic data is `set`.
    static func item(_ account: String, _ set: [String: String], _ accessibility: Accessibility = .whenUnlocked) -> NewItem {
        NewItem(itemClass: .genericPassword,
                attributes: ["acct": .string(account), "svce": .string("pairs"),
                             "gena": .data(LookupAttributeSet(set).encoded), "pdmn": .string(accessibility.rawValue)],
                data: Data("secret of \(account)".utf8))
    }

    func rows(_ keychain: SyncTestKeychain, _ conditions: [[LookupPair]]) throws -> [Int64] {
        try keychain.store.referencesByLookupPairs(conditions, by: keychain.caller).references
            .map { try #require(RowReference.location(of: $0)).rowID }
    }

    static func pair(_ name: String, _ value: String) -> [LookupPair] { [LookupPair(name: name, value: value)] }

    func pairRowCount(_ keychain: SyncTestKeychain) throws -> Int {
        try keychain.store.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item_pair") ?? -1 }
    }

    @Test("Secret Service attributes: every pair is searchable by its keyed hash; conditions intersect, a condition's pairs unite")
    func pairsFindTheirItems() throws {
        let keychain = try SyncTestKeychain("lookup-pairs-find")
        let a = try keychain.add(Self.item("a", ["xdg:schema": "org.example.Pw", "user": "ann", "host": "h1"]))
        let b = try keychain.add(Self.item("b", ["xdg:schema": "org.example.Pw", "user": "bob"]))
        let c = try keychain.add(Self.item("c", ["xdg:schema": "org.example.Other", "username": "ann"]))
        // A generic password whose generic data is not a set has no pairs.
        try keychain.add(NewItem(itemClass: .genericPassword,
                                 attributes: ["acct": .string("d"), "gena": .data(Data("SSA1 but not a set".utf8))],
                                 data: Data("d".utf8)))
        #expect(try rows(keychain, [Self.pair("xdg:schema", "org.example.Pw")]) == [a, b])
        #expect(try rows(keychain, [Self.pair("xdg:schema", "org.example.Pw"), Self.pair("user", "ann")]) == [a])
        #expect(try rows(keychain, [[LookupPair(name: "user", value: "ann"), LookupPair(name: "username", value: "ann")]]) == [a, c])
        #expect(try rows(keychain, [Self.pair("user", "nobody")]).isEmpty)
        // A name and a value are hashed apart: "user"="ann" is not "use"="rann".
        #expect(try rows(keychain, [Self.pair("use", "rann")]).isEmpty)
        #expect(try pairRowCount(keychain) == 7)
        // Another access group's items are not named.
        let stranger = CallerIdentity(accessGroups: ["com.example.other"])
        #expect(try keychain.store.referencesByLookupPairs([Self.pair("user", "ann")], by: stranger).references.isEmpty)
    }

    @Test("Secret Service attributes: an update of the generic data moves the item's pairs; a delete removes them")
    func updatesAndDeletesKeepTheIndex() throws {
        let keychain = try SyncTestKeychain("lookup-pairs-update")
        let a = try keychain.add(Self.item("a", ["kind": "old", "user": "ann"]))
        // Another attribute changes: the pairs stay.
        try keychain.store.update(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("a")]),
                                  with: ItemChanges(attributes: ["labl": .string("renamed")]), by: keychain.caller)
        #expect(try rows(keychain, [Self.pair("kind", "old")]) == [a])
        try keychain.store.update(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("a")]),
                                  with: ItemChanges(attributes: ["gena": .data(LookupAttributeSet(["kind": "new", "user": "ann"]).encoded)]),
                                  by: keychain.caller)
        #expect(try rows(keychain, [Self.pair("kind", "old")]).isEmpty)
        #expect(try rows(keychain, [Self.pair("kind", "new"), Self.pair("user", "ann")]) == [a])
        // The account changes too (the row's columns are rewritten): the pairs follow.
        try keychain.store.update(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("a")]),
                                  with: ItemChanges(attributes: ["acct": .string("a2"),
                                                                 "gena": .data(LookupAttributeSet(["kind": "newer"]).encoded)]),
                                  by: keychain.caller)
        #expect(try rows(keychain, [Self.pair("kind", "new")]).isEmpty)
        #expect(try rows(keychain, [Self.pair("kind", "newer")]) == [a])
        #expect(try pairRowCount(keychain) == 1)
        try keychain.store.delete(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("a2")]), by: keychain.caller)
        #expect(try rows(keychain, [Self.pair("kind", "newer")]).isEmpty)
        #expect(try pairRowCount(keychain) == 0)
    }

    @Test("Secret Service attributes: found by their hashes while the keychain is locked (nothing opened)")
    func foundWhileLocked() throws {
        let keychain = try SyncTestKeychain("lookup-pairs-locked")
        let a = try keychain.add(Self.item("a", ["user": "ann"], .whenUnlocked))
        keychain.store.lock()
        defer { try? keychain.store.unlock(password: nil) }
        #expect(throws: KeychainError.interactionNotAllowed) {
            try keychain.store.find(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("a")],
                                              returning: .attributes), by: keychain.caller)
        }
        #expect(try rows(keychain, [Self.pair("user", "ann")]) == [a])
    }

    @Test("Secret Service attributes: no name or value of a set is in the database or its log in the clear")
    func noPlaintextInTheFiles() throws {
        let keychain = try SyncTestKeychain("lookup-pairs-plaintext")
        try keychain.add(Self.item("a", ["name-\(Self.marker)": "value-\(Self.marker)"]))
        var bytes = Data()
        for path in [keychain.files.database.path, keychain.files.database.path + "-wal"] {
            bytes += (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        }
        #expect(!bytes.isEmpty)
        #expect(bytes.range(of: Data(Self.marker.utf8)) == nil)
    }

    @Test("Format 6: a format 5 keychain is migrated at open; its sets are indexed once their class key is at hand")
    func format5IsMigratedAndIndexed() throws {
        let keychain = try SyncTestKeychain("lookup-pairs-format-5")
        let a = try keychain.add(Self.item("a", ["user": "ann"], .whenUnlocked))
        let b = try keychain.add(Self.item("b", ["user": "ann"], .whenUnlocked))
        keychain.store.close()
        // Back to what a format 5 library wrote: no pair table, no mark, v6 not applied.
        let queue = try DatabaseQueue(path: keychain.files.database.path)
        try OlderFormat.rewrite(queue, as: 5)
        try queue.close()
        let reopened = try KeychainStore.open(keychain.files)
        defer { reopened.close() }
        #expect(try reopened.database.read { try Int.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'format'") }
                == KeychainSchema.formatVersion)
        // Locked: nothing can be indexed, so both are named apart, as not indexed.
        reopened.lock()
        let locked = try reopened.referencesByLookupPairs([Self.pair("user", "ann")], by: keychain.caller)
        #expect(locked.references.isEmpty)
        #expect(try locked.notIndexed.map { try #require(RowReference.location(of: $0)).rowID } == [a, b])
        // Unlocked, the unlock indexes them: found by their pairs, none left.
        try reopened.unlock(password: nil)
        let found = try reopened.referencesByLookupPairs([Self.pair("user", "ann")], by: keychain.caller)
        #expect(try found.references.map { try #require(RowReference.location(of: $0)).rowID } == [a, b])
        #expect(found.notIndexed.isEmpty)
    }
}
