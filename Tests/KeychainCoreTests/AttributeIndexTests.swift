import Foundation
import GRDB
@testable import KeychainCore
import Testing
import TestSupport

/// Format 7 (KeychainSchema, AttributeIndexTable): a find by a label, description, comment,
/// creator or type code, a key's type or sizes, or a certificate's subject, issuer or serial
/// number reads its candidates through the keyed hashes of `item_attribute` rather than
/// opening every item of the class; it returns exactly what comparing every item would
/// (exact bytes, defaults of primary-key fields included), the index follows every add,
/// update and delete, and a format 6 keychain is migrated and its items indexed once their
/// class key is at hand.
@Suite struct AttributeIndexTests {
    static func item(_ itemClass: ItemClass, _ name: String, _ attributes: [String: AttributeValue],
                     _ accessibility: Accessibility = .whenUnlocked) -> NewItem {
        var attributes = attributes
        attributes["pdmn"] = .string(accessibility.rawValue)
        switch itemClass {
        case .genericPassword: attributes["acct"] = .string(name)
        case .internetPassword: attributes["acct"] = .string(name); attributes["srvr"] = .string("example.com")
        case .key: attributes["atag"] = .string(name)
        default: break
        }
        return NewItem(itemClass: itemClass, attributes: attributes, data: Data(name.utf8))
    }

    /// A keychain holding items of every class with shared, differing and absent values.
    static func filled(_ purpose: String) throws -> SyncTestKeychain {
        let keychain = try SyncTestKeychain(purpose)
        let items: [NewItem] = [
            item(.genericPassword, "g0", ["labl": .string("Work"), "desc": .string("token"), "icmt": .string("c1"),
                                          "crtr": .number(0x6162_6364), "type": .number(1)]),
            item(.genericPassword, "g1", ["labl": .string("work"), "desc": .string("token"), "crtr": .number(7)]),
            item(.genericPassword, "g2", ["labl": .string("Work"), "icmt": .string("c2"), "type": .number(2)]),
            item(.genericPassword, "g3", ["labl": .string("Work ")]),
            item(.genericPassword, "g4", [:]),
            item(.internetPassword, "i0", ["labl": .string("Work")]),
            item(.internetPassword, "i1", ["labl": .string("Home")]),
            item(.key, "k0", ["labl": .string("Work"), "type": .number(73), "bsiz": .number(256), "esiz": .number(256),
                              "crtr": .number(5), "kcls": .number(1)]),
            item(.key, "k1", ["labl": .string("Signing"), "type": .number(42), "bsiz": .number(2048), "kcls": .number(1)]),
            item(.key, "k2", ["labl": .string("Work"), "type": .number(42), "bsiz": .number(2048), "esiz": .number(2048),
                              "kcls": .number(1)]),
            item(.key, "k3", ["type": .number(73), "bsiz": .number(384), "kcls": .number(1)]),
            item(.certificate, "c0", ["subj": .data(Data("S1".utf8)), "issr": .data(Data("I1".utf8)),
                                      "slnr": .data(Data([1])), "labl": .string("Work"), "ctyp": .number(1)]),
            item(.certificate, "c1", ["subj": .data(Data("S2".utf8)), "issr": .data(Data("I1".utf8)),
                                      "slnr": .data(Data([2])), "ctyp": .number(1)]),
            item(.certificate, "c2", ["subj": .data(Data("S1".utf8)), "issr": .data(Data("I2".utf8)),
                                      "slnr": .data(Data([1])), "ctyp": .number(1)]),
        ]
        for item in items { try keychain.add(item) }
        return keychain
    }

    /// Each query and the items (by name) it must find: what comparing every item finds.
    static let expectations: [(ItemClass, [String: AttributeValue], [String])] = [
        (.genericPassword, ["labl": .string("Work")], ["g0", "g2"]),
        (.genericPassword, ["labl": .string("work")], ["g1"]),
        (.genericPassword, ["labl": .string("Work ")], ["g3"]),
        (.genericPassword, ["labl": .string("Wor")], []),
        (.genericPassword, ["desc": .string("token")], ["g0", "g1"]),
        (.genericPassword, ["icmt": .string("c2")], ["g2"]),
        (.genericPassword, ["crtr": .number(0x6162_6364)], ["g0"]),
        // A four-character code is the same number, so the same canonical bytes.
        (.genericPassword, ["crtr": .string("abcd")], ["g0"]),
        (.genericPassword, ["type": .number(2)], ["g2"]),
        (.genericPassword, ["labl": .string("Work"), "desc": .string("token")], ["g0"]),
        (.genericPassword, ["labl": .string("Work"), "icmt": .string("c1"), "type": .number(1)], ["g0"]),
        (.internetPassword, ["labl": .string("Work")], ["i0"]),
        (.key, ["labl": .string("Work")], ["k0", "k2"]),
        (.key, ["type": .number(42)], ["k1", "k2"]),
        (.key, ["bsiz": .number(2048)], ["k1", "k2"]),
        // A primary-key field a key was added without compares as its default.
        (.key, ["esiz": .number(0)], ["k1", "k3"]),
        (.key, ["crtr": .number(5)], ["k0"]),
        (.key, ["crtr": .number(0)], ["k1", "k2", "k3"]),
        (.key, ["labl": .string("Work"), "type": .number(42)], ["k2"]),
        (.certificate, ["subj": .data(Data("S1".utf8))], ["c0", "c2"]),
        (.certificate, ["issr": .data(Data("I1".utf8))], ["c0", "c1"]),
        (.certificate, ["slnr": .data(Data([1]))], ["c0", "c2"]),
        (.certificate, ["issr": .data(Data("I1".utf8)), "slnr": .data(Data([1]))], ["c0"]),
        (.certificate, ["labl": .string("Work")], ["c0"]),
    ]

    /// The names of the items a query finds, in insertion order; none for errSecItemNotFound.
    static func names(_ keychain: SyncTestKeychain, _ itemClass: ItemClass, _ attributes: [String: AttributeValue],
                      store: KeychainStore? = nil) throws -> [String] {
        let found: [FoundItem]
        do {
            found = try (store ?? keychain.store)
                .find(ItemQuery(itemClass: itemClass, attributes: attributes, limit: .all, returning: .data),
                      by: keychain.caller)
        } catch {
            guard error == .itemNotFound else { throw error }
            return []
        }
        return found.map { String(decoding: $0.data ?? Data(), as: UTF8.self) }
    }

    static func count(_ store: KeychainStore, _ sql: String) throws -> Int {
        try store.database.read { try Int.fetchOne($0, sql: sql) ?? -1 }
    }

    /// SQLite's plan for the rows a query reads.
    static func plan(_ keychain: SyncTestKeychain, _ query: ItemQuery) throws -> String {
        let plan = try MatchPlan(query: query, caller: keychain.caller, hasher: keychain.store.hasher)
        return try keychain.store.database.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + plan.sql(withSecret: true),
                             arguments: StatementArguments(plan.arguments.map(\.databaseValue)))
                .map { $0["detail"] as String }
                .joined(separator: "\n")
        }
    }

    @Test("A find by each indexed attribute returns exactly the items whose value equals the query's bytes")
    func findsExactlyTheMatches() throws {
        let keychain = try Self.filled("attribute-index-find")
        for (itemClass, attributes, expected) in Self.expectations {
            #expect(try Self.names(keychain, itemClass, attributes) == expected, "\(itemClass) \(attributes)")
        }
        // Each item has one entry per indexed attribute its class has and it holds (keys and
        // certificates hold their primary-key fields' defaults): none left out, none extra.
        let perItem = try keychain.store.database.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: """
                SELECT id, (SELECT count(*) FROM item_attribute WHERE item = item.id) AS n FROM item
                """).map { ($0["id"] as Int64, $0["n"] as Int) })
        }
        // g0: labl desc icmt crtr type; g4: none; k3: type bsiz esiz crtr (no label);
        // c1: subj issr slnr (no label).
        #expect(perItem[1] == 5)
        #expect(perItem[5] == 0)
        #expect(perItem[11] == 4)
        #expect(perItem[13] == 3)
    }

    @Test("A find by an indexed attribute reads its candidates through item_attribute, not the whole class")
    func theIndexIsUsed() throws {
        let keychain = try Self.filled("attribute-index-plan")
        for (itemClass, code, value) in [(ItemClass.genericPassword, "labl", AttributeValue.string("Work")),
                                         (.internetPassword, "labl", .string("Work")), (.key, "labl", .string("Work")),
                                         (.key, "bsiz", .number(2048)), (.certificate, "subj", .data(Data("S1".utf8))),
                                         (.certificate, "issr", .data(Data("I1".utf8))),
                                         (.genericPassword, "desc", .string("token"))] {
            let detail = try Self.plan(keychain, ItemQuery(itemClass: itemClass, attributes: [code: value]))
            // The rows by id, their ids from the attribute's entries, and the rows not
            // indexed yet from the partial index that holds only those (empty here).
            #expect(detail.hasPrefix("SEARCH item USING INTEGER PRIMARY KEY"), "\(detail)")
            #expect(detail.contains("SEARCH item_attribute USING PRIMARY KEY (value=?)"), "\(detail)")
            let scans = detail.split(separator: "\n").filter { $0.contains("SCAN") }
            #expect(scans == ["SCAN item USING INDEX item_not_indexed"], "\(detail)")
        }
        // A query that a hashed column narrows already keeps that column's index.
        let byAccount = try Self.plan(keychain, ItemQuery(itemClass: .genericPassword,
                                                          attributes: ["acct": .string("g0"), "labl": .string("Work")]))
        #expect(byAccount.contains("item_by_account"), "\(byAccount)")
        // The candidates are the index's: an entry removed hides its item (whose label still
        // matches), and an entry copied to another item adds a candidate that the comparison
        // of its opened attributes then turns down.
        try keychain.store.database.write { db in
            let workHash = keychain.store.hasher.hash("labl", Data("Work".utf8))
            try db.execute(sql: "DELETE FROM item_attribute WHERE item = 1 AND value = ?", arguments: [workHash])
            try db.execute(sql: "INSERT INTO item_attribute (value, item) VALUES (?, 2)", arguments: [workHash])
        }
        #expect(try Self.names(keychain, .genericPassword, ["labl": .string("Work")]) == ["g2"])
        #expect(try Self.names(keychain, .genericPassword, ["desc": .string("token")]) == ["g0", "g1"])
    }

    @Test("Updates move an item's entries; every kind of delete leaves none behind")
    func updatesAndDeletesKeepTheIndex() throws {
        let keychain = try Self.filled("attribute-index-update")
        let store = keychain.store
        func update(_ account: String, _ changes: [String: AttributeValue]) throws {
            try store.update(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string(account)]),
                             with: ItemChanges(attributes: changes), by: keychain.caller)
        }
        // Only sealed parts change (the columns stay): the entries follow the label.
        try update("g3", ["labl": .string("Work")])
        try update("g0", ["labl": .string("Old")])
        #expect(try Self.names(keychain, .genericPassword, ["labl": .string("Work")]) == ["g2", "g3"])
        #expect(try Self.names(keychain, .genericPassword, ["labl": .string("Old")]) == ["g0"])
        #expect(try Self.names(keychain, .genericPassword, ["labl": .string("Work ")]).isEmpty)
        // Another attribute changes: the label's entry stays.
        try update("g0", ["icmt": .string("changed")])
        #expect(try Self.names(keychain, .genericPassword, ["labl": .string("Old")]) == ["g0"])
        #expect(try Self.names(keychain, .genericPassword, ["icmt": .string("changed")]) == ["g0"])
        // The account changes too (the whole row is rewritten): the entries follow.
        try update("g2", ["acct": .string("g2b"), "labl": .string("New")])
        #expect(try Self.names(keychain, .genericPassword, ["labl": .string("Work")]) == ["g3"])
        #expect(try Self.names(keychain, .genericPassword, ["labl": .string("New")]) == ["g2"])
        #expect(try Self.count(store, "SELECT count(*) FROM item_attribute WHERE item NOT IN (SELECT id FROM item)") == 0)

        // A delete the columns decide (one statement), one that opens rows (by label), one
        // of several classes at once, and a remote deletion applied by sync.
        try store.delete(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("g1")]), by: keychain.caller)
        try store.delete(ItemQuery(itemClass: .key, attributes: ["labl": .string("Work")], limit: .all), by: keychain.caller)
        try store.delete(every: [ItemQuery(itemClass: .certificate, limit: .all),
                                 ItemQuery(itemClass: .internetPassword, limit: .all)], by: keychain.caller)
        #expect(try Self.count(store, "SELECT count(*) FROM item_attribute WHERE item NOT IN (SELECT id FROM item)") == 0)
        #expect(try Self.names(keychain, .key, ["labl": .string("Work")]).isEmpty)
        try store.delete(ItemQuery(itemClass: .genericPassword, limit: .all), by: keychain.caller)
        try store.delete(ItemQuery(itemClass: .key, limit: .all), by: keychain.caller)
        #expect(try Self.count(store, "SELECT count(*) FROM item") == 0)
        #expect(try Self.count(store, "SELECT count(*) FROM item_attribute") == 0)
    }

    @Test("Imported items and items applied by sync are found by their indexed attributes, and only they")
    func importsAndSyncAppliesAreIndexed() throws {
        let source = try Self.filled("attribute-index-import-source")
        let password = Data("archive password".utf8)
        let archive = try source.store.exportArchive(password: password, kdf: .fastForTesting()).archive
        let target = try SyncTestKeychain("attribute-index-import-target")
        _ = try target.store.importArchive(archive, password: password, policy: .failOnDuplicate)
        #expect(try Self.count(target.store, "SELECT count(*) FROM item WHERE indexed = 0") == 0)
        for (itemClass, attributes, expected) in Self.expectations {
            #expect(try Self.names(target, itemClass, attributes) == expected, "\(itemClass) \(attributes)")
        }
        // A remote item, then a remote change of its label, applied as sync does.
        func remote(label: String, modified: TimeInterval) -> SyncedItem {
            SyncedItem(itemClass: .genericPassword, attributes: [
                "acct": .string("remote"), "svce": .string("sync-tests"), "agrp": .string(SyncTestKeychain.group),
                "pdmn": .string(Accessibility.whenUnlocked.rawValue), "sync": .number(1),
                "cdat": .date(Date(timeIntervalSince1970: 1_600_000_000)),
                "mdat": .date(Date(timeIntervalSince1970: modified)), "labl": .string(label),
            ], secret: Data("remote".utf8))
        }
        func synced(_ label: String) throws -> [String] {
            let found: [FoundItem]
            do {
                found = try target.store.find(ItemQuery(itemClass: .genericPassword, attributes: ["labl": .string(label)],
                                                        synchronizable: .any, limit: .all, returning: .data),
                                              by: target.caller)
            } catch {
                guard error == .itemNotFound else { throw error }
                return []
            }
            return found.map { String(decoding: $0.data ?? Data(), as: UTF8.self) }
        }
        _ = try target.store.applySyncedItem(remote(label: "Work", modified: 1_700_000_000), knownLog: 0)
        #expect(try synced("Work") == ["g0", "g2", "remote"])
        _ = try target.store.applySyncedItem(remote(label: "Elsewhere", modified: 1_800_000_000), knownLog: 0)
        #expect(try synced("Work") == ["g0", "g2"])
        #expect(try synced("Elsewhere") == ["remote"])
    }

    @Test("Format 7: a format 6 keychain is migrated at open; finds by label work before and after its items are indexed")
    func format6IsMigratedAndIndexed() throws {
        let keychain = try Self.filled("attribute-index-format-6")
        let total = try Self.count(keychain.store, "SELECT count(*) FROM item")
        keychain.store.close()
        // Back to what a format 6 library wrote: no attribute table, no mark, v7 not applied.
        let queue = try DatabaseQueue(path: keychain.files.database.path)
        try OlderFormat.rewrite(queue, as: 6)
        try queue.close()
        let reopened = try KeychainStore.open(keychain.files)
        defer { reopened.close() }
        #expect(try Self.count(reopened, "SELECT value FROM meta WHERE key = 'format'") == KeychainSchema.formatVersion)
        #expect(try Self.count(reopened, "SELECT count(*) FROM item WHERE indexed = 0") == total)
        // Locked: the rows not indexed may be the ones asked for, so the find cannot tell.
        reopened.lock()
        #expect(throws: KeychainError.interactionNotAllowed) {
            try reopened.find(ItemQuery(itemClass: .key, attributes: ["labl": .string("Work")]), by: keychain.caller)
        }
        // Unlocked, the unlock indexes them; every find answers as before.
        try reopened.unlock(password: nil)
        #expect(try Self.count(reopened, "SELECT count(*) FROM item WHERE indexed = 0") == 0)
        #expect(try Self.count(reopened, "SELECT count(*) FROM item_attribute") > 0)
        for (itemClass, attributes, expected) in Self.expectations {
            #expect(try Self.names(keychain, itemClass, attributes, store: reopened) == expected, "\(itemClass) \(attributes)")
        }
        // Keys and certificates keep their lookup columns: found by tag as before.
        #expect(try Self.names(keychain, .key, ["atag": .string("k2")], store: reopened) == ["k2"])
    }

    @Test("Format 7: rows an older library adds are found by label before anything indexes them, then indexed by that find")
    func rowsNotIndexedAreFoundByTheirAttributes() throws {
        let keychain = try Self.filled("attribute-index-late")
        let store = keychain.store
        // As a format 6 library would leave them: no entries, not marked.
        try store.database.write { db in
            try db.execute(sql: "DELETE FROM item_attribute; UPDATE item SET indexed = 0")
        }
        #expect(try Self.names(keychain, .genericPassword, ["labl": .string("Work")]) == ["g0", "g2"])
        // That find met rows not indexed, and indexed what this process holds the keys of.
        #expect(try Self.count(store, "SELECT count(*) FROM item WHERE indexed = 0") == 0)
        for (itemClass, attributes, expected) in Self.expectations {
            #expect(try Self.names(keychain, itemClass, attributes) == expected, "\(itemClass) \(attributes)")
        }
    }
}
