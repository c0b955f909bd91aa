import Foundation
import GRDB
@testable import KeychainCore
import Testing
import TestSupport

/// Format 4 finds keys by application tag and label, and certificates by public-key hash,
/// through hashed columns. A keychain written by a format 3 library has no such columns:
/// it opens, its keys are found by tag at once, and they are indexed by the first search
/// (or unlock) that holds their class key. These tests write a format 3 keychain as that
/// library did: the rows sealed without lookup columns in their associated data, the
/// columns and indexes dropped, the format and migration list set back.
@Suite struct KeyLookupMigrationTests {
    let caller = CallerIdentity(accessGroups: ["com.example.app"])
    let password = Data("correct horse".utf8)

    func files(_ purpose: String) -> KeychainFiles {
        let folder = TestScratch.folder(purpose)
        return KeychainFiles(directory: folder.appendingPathComponent("keychains"), name: "work",
                             machineSecret: folder.appendingPathComponent("machine"))
    }

    /// A private key item with its tag and application label; its secret says which it is.
    func key(tag: String, label: Data, _ accessibility: Accessibility = .afterFirstUnlock) -> NewItem {
        NewItem(itemClass: .key,
                attributes: ["atag": .data(Data(tag.utf8)), "klbl": .data(label), "kcls": .number(1),
                             "pdmn": .string(accessibility.rawValue)],
                data: Data("secret of \(tag)".utf8))
    }

    func secret(of found: [FoundItem]) -> [String] {
        found.compactMap { $0.data.map { String(decoding: $0, as: UTF8.self) } }
    }

    func status(_ body: () throws -> Void) -> Int32 {
        do { try body(); return 0 } catch let error as KeychainError { return error.status } catch { return -1 }
    }

    /// How many keys and certificates are not indexed yet.
    func notIndexed(_ store: KeychainStore) throws -> Int {
        try store.database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE class IN (3, 4) AND atag IS X''") ?? -1
        }
    }

    /// The column names of the item table of a database migrated up to `migration`.
    func itemColumns(upTo migration: String) throws -> [String] {
        let queue = try DatabaseQueue()
        try KeychainSchema.migrator.migrate(queue, upTo: migration)
        return try queue.read { db in try db.columns(in: "item").map(\.name) }
    }

    /// Turns a keychain written by this library into one written by format 3: each key and
    /// certificate sealed again without its lookup columns, which format 3 did not have.
    func writeAsFormat3(_ files: KeychainFiles, store: KeychainStore) throws {
        try store.database.write { db in
            var rows: [StoredRow] = []
            try DirectStatement(db, sql: "SELECT \(StoredRow.selectedColumns), secret FROM item WHERE class IN (3, 4)",
                                values: []).forEachRow { statement in
                rows.append(try StoredRow(statement: statement))
                return true
            }
            for row in rows {
                let key = try store.classKey(of: row)
                let attributes = try ItemSealing.open(row.sealedAttributes, part: .attributes, columns: row.columns,
                                                      rowNonce: row.nonce, key: key)
                let secret = try ItemSealing.open(try #require(row.sealedSecret), part: .secret, columns: row.columns,
                                                  rowNonce: row.nonce, key: key)
                let sealed = try ItemSealing.seal(attributes: attributes, secret: secret,
                                                  columns: row.columns.with(keyLookup: nil), rowNonce: row.nonce, key: key)
                try db.execute(sql: "UPDATE item SET attributes = ?, secret = ? WHERE id = ?",
                               arguments: [sealed.attributes, sealed.secret, row.id])
            }
        }
        store.close()
        let queue = try DatabaseQueue(path: files.database.path)
        try OlderFormat.rewrite(queue, as: 3)
        #expect(try queue.read { db in try db.columns(in: "item").map(\.name) } == itemColumns(upTo: "v3"))
        try queue.close()
    }

    @Test("migration to format 4: keys of a format 3 keychain are found by tag and label, then indexed by the search")
    func format3KeysAreFoundAndIndexed() throws {
        let files = files("format-3-keys")
        let store = try KeychainStore.open(files)
        // Tags that are prefixes of one another, and two keys with the same label.
        let tags = ["com.example.k", "com.example.k1", "com.example.k10", "com.example.k2", "other"]
        for (index, tag) in tags.enumerated() {
            _ = try store.add(key(tag: tag, label: Data([UInt8(index), 0x11])), by: caller)
        }
        _ = try store.add(key(tag: "shared-label", label: Data([0, 0x11]), .always), by: caller)
        _ = try store.add(NewItem(itemClass: .genericPassword, attributes: ["acct": .string("com.example.k")],
                                  data: Data("password".utf8)), by: caller)
        try writeAsFormat3(files, store: store)

        let reopened = try KeychainStore.open(files)
        // Migrated to the current format, which is what it records.
        #expect(try reopened.database.read { try Int.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'format'") } == KeychainSchema.formatVersion)
        #expect(try notIndexed(reopened) == 6)
        // Before anything is indexed: exactly the key of each tag, none of the others.
        #expect(try secret(of: reopened.find(byTag: "com.example.k1")) == ["secret of com.example.k1"])
        // That search indexed every key, and they are still found, by tag and by label.
        #expect(try notIndexed(reopened) == 0)
        for tag in tags {
            #expect(try secret(of: reopened.find(byTag: tag)) == ["secret of \(tag)"])
        }
        let byLabel = ItemQuery(itemClass: .key, attributes: ["klbl": .data(Data([0, 0x11]))], limit: .all,
                                returning: [.data])
        #expect(try secret(of: reopened.find(byLabel, by: caller)) == ["secret of com.example.k", "secret of shared-label"])
        #expect(status { _ = try reopened.find(byTag: "com.example") } == KeychainError.itemNotFound.status)
        // The password is untouched and opens as before.
        let password = ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("com.example.k")],
                                 returning: [.data])
        #expect(try reopened.find(password, by: caller).first?.data == Data("password".utf8))
        reopened.close()
    }

    @Test("migration to format 4: while their class is locked, keys not yet indexed are not left out; unlock indexes them")
    func lockedKeysAreIndexedAtUnlock() throws {
        let files = files("format-3-locked")
        let store = try KeychainStore.open(files, creating: KeychainCreation(password: password, kdf: .fastForTesting(),
                                                                             settings: .default))
        _ = try store.add(key(tag: "while-unlocked", label: Data([1]), .whenUnlocked), by: caller)
        _ = try store.add(key(tag: "after-first-unlock", label: Data([2]), .afterFirstUnlock), by: caller)
        try writeAsFormat3(files, store: store)

        let reopened = try KeychainStore.open(files)
        reopened.lock()
        let locked = KeychainError.interactionNotAllowed.status
        // The class A key might be the one asked for until it is indexed: the search says
        // it cannot tell (errSecInteractionNotAllowed) rather than answering without it.
        #expect(status { _ = try reopened.find(byTag: "after-first-unlock") } == locked)
        #expect(status { _ = try reopened.find(byTag: "while-unlocked") } == locked)
        // Those searches indexed what this process can open: the class C key.
        #expect(try notIndexed(reopened) == 1)
        try reopened.unlock(password: password)
        #expect(try notIndexed(reopened) == 0)
        reopened.lock()
        // Indexed, the class A key is no candidate for another tag, and still refused for its own.
        #expect(try secret(of: reopened.find(byTag: "after-first-unlock")) == ["secret of after-first-unlock"])
        #expect(status { _ = try reopened.find(byTag: "while-unlocked") } == locked)
        try reopened.unlock(password: password)
        #expect(try secret(of: reopened.find(byTag: "while-unlocked")) == ["secret of while-unlocked"])
        reopened.close()
    }

    @Test("migration to format 4: a key a format 3 process adds after the upgrade is found by tag, not confused with others")
    func keysAddedByAnOlderProcessAreFound() throws {
        let files = files("format-3-late-add")
        let store = try KeychainStore.open(files)
        _ = try store.add(key(tag: "early", label: Data([1])), by: caller)
        _ = try store.add(key(tag: "late", label: Data([2])), by: caller)
        try writeAsFormat3(files, store: store)
        let reopened = try KeychainStore.open(files)
        // Keep the second key as format 3 sealed it, then let a search index both.
        try reopened.database.write { db in
            try db.execute(sql: """
                CREATE TEMP TABLE late AS SELECT nonce, class, sync, protection, identity, agrp, acct, svce, srvr,
                    attributes, secret FROM item WHERE id = 2
                """)
        }
        #expect(try secret(of: reopened.find(byTag: "early")) == ["secret of early"])
        #expect(try notIndexed(reopened) == 0)
        // A format 3 library still holding the database open adds it again: its INSERT
        // names only the columns it knows, and the others take the not-indexed mark.
        try reopened.database.write { db in
            try db.execute(sql: """
                DELETE FROM item WHERE id = 2;
                INSERT INTO item (nonce, class, sync, protection, identity, agrp, acct, svce, srvr, attributes, secret)
                    SELECT * FROM late;
                """)
        }
        #expect(try notIndexed(reopened) == 1)
        #expect(try secret(of: reopened.find(byTag: "late")) == ["secret of late"])
        #expect(try secret(of: reopened.find(byTag: "early")) == ["secret of early"])
        reopened.close()
    }

    @Test("at rest: a lookup column copied from another key's row makes the row fail to open, never a wrong key")
    func lookupColumnsAreBoundToTheirRow() throws {
        let files = files("lookup-binding")
        let store = try KeychainStore.open(files)
        _ = try store.add(key(tag: "first", label: Data([1])), by: caller)
        _ = try store.add(key(tag: "second", label: Data([2])), by: caller)
        try store.database.write { db in
            try db.execute(sql: "UPDATE item SET atag = (SELECT atag FROM item WHERE id = 2) WHERE id = 1")
        }
        #expect(status { _ = try store.find(byTag: "second") } == KeychainError.decode.status)
        try store.database.write { db in try db.execute(sql: "UPDATE item SET atag = X'' WHERE id = 1") }
        // Marked not indexed, its associated data no longer matches either.
        #expect(status { _ = try store.find(byTag: "first") } == KeychainError.decode.status)
        store.close()
    }
}

extension KeychainStore {
    fileprivate func find(byTag tag: String) throws -> [FoundItem] {
        try find(ItemQuery(itemClass: .key, attributes: ["atag": .data(Data(tag.utf8))], limit: .all,
                           returning: [.data]), by: CallerIdentity(accessGroups: ["com.example.app"]))
    }
}
