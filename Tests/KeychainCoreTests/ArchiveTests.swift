import Foundation
import GRDB
@testable import KeychainCore
import Testing
import TestSupport

/// Export and import (issue 4, point 6): an archive under its own password carries every
/// migratable item to another keychain with the same attributes and data, never a
/// ThisDeviceOnly item, and a wrong password or a damaged archive changes nothing.
@Suite struct ArchiveTests {
    static let password = Data("archive password".utf8)
    static let app = "com.example.app"
    static let shared = "com.example.shared"
    let owner = CallerIdentity(accessGroups: [Self.app, Self.shared])

    /// An item as a user reads it back: every attribute and the data.
    struct Contents: Hashable {
        let record: ItemRecord
        let data: Data
    }

    static func makeStore(_ purpose: String) throws -> KeychainStore {
        try KeychainStore.open(KeychainFiles(directory: TestScratch.folder(purpose), name: "login"))
    }

    /// Every item of the test's groups, class by class, each class in insertion order.
    func contents(of store: KeychainStore) throws -> [Contents] {
        var contents: [Contents] = []
        for itemClass in [ItemClass.genericPassword, .internetPassword, .certificate, .key] {
            let query = ItemQuery(itemClass: itemClass, synchronizable: .any, limit: .all, returning: [.attributes, .data])
            do {
                for found in try store.find(query, by: owner) {
                    contents.append(Contents(record: try #require(found.record), data: try #require(found.data)))
                }
            } catch KeychainError.itemNotFound {
                continue
            }
        }
        return contents
    }

    /// One item of each class, with every attribute type: Data and String text, numbers,
    /// booleans, four-character codes, dates, both groups, a synchronizable item, and a
    /// modification date later than the creation date.
    static let migratable: [NewItem] = [
        NewItem(itemClass: .genericPassword, attributes: [
            "acct": .data(Data("MkAccount4Rt8Zp".utf8)), "svce": .string("MkService9Wq2"),
            "labl": .string("MkLabel3Vb6Nc1"), "desc": .string("description"), "icmt": .string("comment"),
            "gena": .data(Data([0, 1, 2, 255])), "crtr": .number(0x6170_706C), "type": .string("note"),
            "invi": .bool(true), "nega": .number(0), "pdmn": .string("ck"), "agrp": .string(shared),
        ], isSynchronizable: true, data: Data("MkSecret7Qx2Lm9".utf8)),
        NewItem(itemClass: .genericPassword, attributes: ["acct": .string("no data")]),
        NewItem(itemClass: .internetPassword, attributes: [
            "acct": .string("user"), "srvr": .string("example.com"), "sdmn": .string("realm"),
            "ptcl": .string("htps"), "atyp": .string("form"), "port": .number(443), "path": .string("/login"),
            "pdmn": .string("dk"),
        ], data: Data("inet secret".utf8)),
        NewItem(itemClass: .certificate, attributes: [
            "ctyp": .number(3), "cenc": .number(3), "subj": .data(Data("subject".utf8)),
            "issr": .data(Data("issuer".utf8)), "slnr": .data(Data([1, 2, 3])), "skid": .data(Data([4, 5])),
            "pkhh": .data(Data([6, 7])), "labl": .string("certificate"),
        ], data: Data("DER bytes".utf8)),
        NewItem(itemClass: .key, attributes: [
            "kcls": .number(1), "klbl": .data(Data([9, 9, 9])), "atag": .data(Data("tag".utf8)),
            "type": .number(73), "bsiz": .number(256), "esiz": .number(256),
            "sdat": .date(Date(timeIntervalSinceReferenceDate: 12_345.678)),
            "edat": .date(Date(timeIntervalSinceReferenceDate: 98_765.4321)),
            "perm": .bool(true), "sign": .number(1), "vrfy": .bool(false), "pdmn": .string("ak"),
        ], data: Data(repeating: 0x42, count: 32)),
    ]

    /// A keychain with the migratable items, one of them updated afterwards.
    func makeSource() throws -> KeychainStore {
        let source = try Self.makeStore("archive-source")
        for item in Self.migratable { _ = try source.add(item, by: owner) }
        try source.update(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("no data")]),
                          with: ItemChanges(attributes: ["labl": .string("updated")]), by: owner)
        return source
    }

    func export(_ store: KeychainStore) throws -> Data {
        try store.exportArchive(password: Self.password, kdf: .fastForTesting()).archive
    }

    // MARK: - Round trip

    @Test func importRestoresEveryAttributeAndTheDataInAnotherKeychain() throws {
        let source = try makeSource()
        let expected = try contents(of: source)
        #expect(expected.count == Self.migratable.count)
        let updated = try #require(expected.first { $0.record.attributes["labl"] == .string("updated") })
        #expect(updated.record.attributes["cdat"] != updated.record.attributes["mdat"])

        let target = try Self.makeStore("archive-target")
        let report = try target.importArchive(export(source), password: Self.password, policy: .failOnDuplicate)

        #expect(report == ImportReport(imported: Self.migratable.count))
        #expect(try contents(of: target) == expected)
    }

    @Test func importedItemsGetReferencesOfTheirNewKeychain() throws {
        let source = try Self.makeStore("archive-source")
        // Deleting the first item shifts the row ids: one source reference names a row id the
        // target has too, and only its nonce keeps it from resolving there.
        for index in 0..<3 { _ = try source.add(NewItem(itemClass: .genericPassword, attributes: ["acct": .string("\(index)")]), by: owner) }
        try source.delete(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("0")]), by: owner)
        let sourceReferences = try source.find(
            ItemQuery(itemClass: .genericPassword, limit: .all, returning: [.persistentReference]), by: owner)
            .map(\.persistentReference)
        let target = try Self.makeStore("archive-target")
        _ = try target.importArchive(export(source), password: Self.password, policy: .failOnDuplicate)

        for reference in sourceReferences {
            #expect(throws: KeychainError.itemNotFound) {
                try target.find(ItemQuery(itemClass: .genericPassword, persistentReference: reference), by: owner)
            }
        }
        let targetReferences = try target.find(
            ItemQuery(itemClass: .genericPassword, limit: .all, returning: [.persistentReference]), by: owner)
            .map(\.persistentReference)
        for reference in targetReferences {
            let found = try target.find(ItemQuery(itemClass: .genericPassword, persistentReference: reference,
                                                  returning: [.attributes]), by: owner)
            #expect(found.count == 1)
        }
        #expect(targetReferences.count == 2)
    }

    @Test("issue 4: a locked keychain does not export; a locked target does not import")
    func lockedKeychainsRefuse() throws {
        let source = try makeSource()
        let archive = try export(source)
        source.lock()
        #expect(throws: KeychainError.interactionNotAllowed) { try self.export(source) }
        let target = try Self.makeStore("archive-locked-target")
        target.lock()
        #expect(throws: KeychainError.interactionNotAllowed) {
            try target.importArchive(archive, password: Self.password, policy: .failOnDuplicate)
        }
        try target.unlock(password: nil)
        #expect(try contents(of: target).isEmpty)
    }

    @Test func anEmptyKeychainExportsAnArchiveOfNoItems() throws {
        let archive = try export(Self.makeStore("archive-empty"))
        #expect(try KeychainArchive.open(archive, password: Self.password).isEmpty)
        let target = try Self.makeStore("archive-target")
        #expect(try target.importArchive(archive, password: Self.password, policy: .failOnDuplicate) == ImportReport())
    }

    // MARK: - What an archive holds

    @Test func thisDeviceOnlyItemsNeverEnterAnArchive() throws {
        // With a password, which akpu items need.
        let source = try KeychainStore.create(
            KeychainFiles(directory: TestScratch.folder("archive-device"), name: "login"),
            password: Data("keychain password".utf8), kdf: .fastForTesting())
        let deviceOnly: [Accessibility] = [.whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly,
                                           .alwaysThisDeviceOnly, .whenPasscodeSetThisDeviceOnly]
        for accessibility in deviceOnly {
            _ = try source.add(NewItem(itemClass: .genericPassword, attributes: [
                "acct": .string("device \(accessibility.rawValue)"), "pdmn": .string(accessibility.rawValue),
            ], data: Data("device secret".utf8)), by: owner)
        }
        _ = try source.add(NewItem(itemClass: .key, attributes: ["pdmn": .string("dku")]), by: owner)
        _ = try source.add(NewItem(itemClass: .genericPassword, attributes: ["acct": .string("migrates")]), by: owner)

        let archive = try export(source)
        let archived = try KeychainArchive.open(archive, password: Self.password)
        #expect(archived.map { $0.record.attributes["acct"] } == [.string("migrates")])

        let target = try Self.makeStore("archive-target")
        _ = try target.importArchive(archive, password: Self.password, policy: .failOnDuplicate)
        #expect(try contents(of: target).map { $0.record.attributes["acct"] } == [.string("migrates")])
    }

    @Test func anArchiveShowsNoAttributeOrSecretInTheClear() throws {
        let archive = try export(makeSource())
        #expect(try KeychainArchive.open(archive, password: Self.password).count == Self.migratable.count)
        let bytes = [UInt8](archive)
        for marker in ["MkAccount", "MkService", "MkLabel", "MkSecret", Self.shared, "example.com"] {
            let pattern = Array(marker.utf8)
            let found = bytes.indices.dropLast(pattern.count - 1).contains { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
            #expect(!found, "\(marker) is readable in the archive")
        }
    }

    @Test func theArchiveRecordsTheStandardKDFByDefault() throws {
        let source = try Self.makeStore("archive-standard")
        _ = try source.add(NewItem(itemClass: .genericPassword, data: Data("secret".utf8)), by: owner)
        let recorded = try KeychainArchive.recordedKDF(in: source.exportArchive(password: Self.password).archive)
        let standard = PasswordKDF.standard()
        #expect(recorded.logRounds == standard.logRounds)
        #expect(recorded.blockSize == standard.blockSize)
        #expect(recorded.parallelism == standard.parallelism)
        #expect(recorded.salt.count == standard.salt.count)
    }

    // MARK: - Passwords and damage

    @Test func aWrongPasswordIsAuthFailedAndChangesNothing() throws {
        let archive = try export(makeSource())
        let target = try Self.makeStore("archive-target")
        _ = try target.add(NewItem(itemClass: .genericPassword, attributes: ["acct": .string("own")]), by: owner)
        let before = try contents(of: target)
        for password in [Data("archive passworD".utf8), Data()] {
            #expect(throws: KeychainError.authFailed) {
                try target.importArchive(archive, password: password, policy: .replaceExisting)
            }
        }
        #expect(try contents(of: target) == before)
    }

    /// Every truncation, every single flipped bit position, appended bytes and garbage:
    /// errSecDecode each time, found before the KDF runs, and the keychain unchanged.
    @Test func aTruncatedOrAlteredArchiveIsDecodeAndChangesNothing() throws {
        let archive = try export(makeSource())
        let target = try Self.makeStore("archive-target")
        _ = try target.add(NewItem(itemClass: .genericPassword, attributes: ["acct": .string("own")]), by: owner)
        let before = try contents(of: target)

        var damaged: [Data] = (0..<archive.count).map { archive.prefix($0) }
        for index in archive.indices {
            var flipped = archive
            flipped[index] ^= 1 << UInt8(index % 8)
            damaged.append(flipped)
        }
        damaged.append(archive + Data([0]))
        var generator = SeededGenerator(seed: 6)
        for length in [1, 8, 10, 64, 200, 2_000] {
            let noise = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            damaged.append(noise)
            damaged.append(archive.prefix(10) + noise)
        }
        for bytes in damaged {
            #expect(throws: KeychainError.decode) {
                try target.importArchive(bytes, password: Self.password, policy: .replaceExisting)
            }
        }
        #expect(try contents(of: target) == before)
    }

    /// Alterations made by someone who also recomputes the trailer: the contents, the
    /// version and the KDF parameters are still bound, and hostile parameters never run.
    @Test func alterationsBehindARecomputedTrailerAreDetected() throws {
        let archive = try export(makeSource())
        let target = try Self.makeStore("archive-target")
        func forged(_ offset: Int, _ value: UInt8) -> Data {
            var body = archive.dropLast(32)
            body[body.startIndex + offset] = value
            return body + KeychainArchive.trailer(of: body)
        }
        let saltLength = Int(archive[archive.startIndex + 13])
        let payload = 14 + saltLength + 32 + 20
        #expect(throws: KeychainError.decode) {
            try target.importArchive(forged(payload, archive[payload] ^ 0x01), password: Self.password, policy: .failOnDuplicate)
        }
        // The version's low byte, then log2 N beyond the bounds (2^200 would never end).
        for (offset, value) in [(9, UInt8(2)), (10, 200), (11, 0), (12, 100)] {
            #expect(throws: KeychainError.decode) {
                try target.importArchive(forged(offset, value), password: Self.password, policy: .failOnDuplicate)
            }
        }
        // Other bounded parameters derive another key: the password no longer opens it.
        #expect(throws: KeychainError.authFailed) {
            try target.importArchive(forged(10, archive[10] + 1), password: Self.password, policy: .failOnDuplicate)
        }
        #expect(try contents(of: target).isEmpty)
    }

    /// Damage is contained: an item that fails to open is left out and named by its clear
    /// columns, and every other item is exported and imports.
    @Test(arguments: ["attributes", "secret"])
    func aDamagedStoredItemIsSkippedAndNamedAndTheRestExported(_ column: String) throws {
        let source = try makeSource()
        let expected = try contents(of: source)
        try source.database.write { db in
            // One byte flipped, as someone with the file would: every value of it changes.
            let sealed = try #require(try Data.fetchOne(db, sql: "SELECT \(column) FROM item WHERE id = 2"))
            var damaged = sealed
            damaged[damaged.startIndex + 20] ^= 0x01
            try db.execute(sql: "UPDATE item SET \(column) = ? WHERE id = 2", arguments: [damaged])
        }
        let export = try source.exportArchive(password: Self.password, kdf: .fastForTesting())
        let second = try #require(expected.dropFirst().first)
        #expect(export.skipped == [UnreadableItem(rowID: 2, classCode: second.record.itemClass.storageCode,
                                                  protection: second.record.accessibility.rawValue,
                                                  sync: second.record.isSynchronizable ? 1 : 0)])

        let target = try Self.makeStore("archive-target")
        let report = try target.importArchive(export.archive, password: Self.password, policy: .failOnDuplicate)
        #expect(report == ImportReport(imported: Self.migratable.count - 1))
        #expect(try contents(of: target) == expected.filter { $0 != second })
    }

    @Test func anExportNeedsAPasswordAndBoundedKDFParameters() throws {
        let source = try makeSource()
        var unbounded = PasswordKDF.fastForTesting()
        unbounded.logRounds = 40
        for (password, kdf) in [(Data(), PasswordKDF.fastForTesting()), (Self.password, unbounded)] {
            let error = #expect(throws: KeychainError.self) { try source.exportArchive(password: password, kdf: kdf) }
            #expect(error?.status == -50)
        }
    }

    // MARK: - Items that already exist

    /// A target holding its own version of the source's first item (same identity, other
    /// label and data) and an unrelated item; the archive of `first` and `second`.
    func collision() throws -> (target: KeychainStore, archive: Data, archived: [Contents]) {
        let source = try Self.makeStore("archive-source")
        for account in ["first", "second"] {
            _ = try source.add(NewItem(itemClass: .genericPassword, attributes: [
                "acct": .string(account), "svce": .string("s"), "labl": .string("archived"),
            ], data: Data("archived \(account)".utf8)), by: owner)
        }
        let target = try Self.makeStore("archive-target")
        for account in ["first", "unrelated"] {
            _ = try target.add(NewItem(itemClass: .genericPassword, attributes: [
                "acct": .string(account), "svce": .string("s"), "labl": .string("local"),
            ], data: Data("local \(account)".utf8)), by: owner)
        }
        return (target, try export(source), try contents(of: source))
    }

    func item(_ account: String, in contents: [Contents]) -> Contents? {
        contents.first { $0.record.attributes["acct"] == .string(account) }
    }

    @Test func keepExistingSkipsTheArchivedVersion() throws {
        let (target, archive, archived) = try collision()
        let local = try #require(item("first", in: contents(of: target)))
        let report = try target.importArchive(archive, password: Self.password, policy: .keepExisting)
        #expect(report == ImportReport(imported: 1, skipped: 1))
        let after = try contents(of: target)
        #expect(item("first", in: after) == local)
        #expect(item("second", in: after) == item("second", in: archived))
        #expect(item("unrelated", in: after) != nil)
        // Importing it again is a no-op.
        #expect(try target.importArchive(archive, password: Self.password, policy: .keepExisting) == ImportReport(skipped: 2))
    }

    @Test func replaceExistingKeepsNothingOfTheOldItem() throws {
        let (target, archive, archived) = try collision()
        let oldReference = try #require(target.find(ItemQuery(itemClass: .genericPassword,
            attributes: ["acct": .string("first")], returning: [.persistentReference]), by: owner).first?.persistentReference)
        let report = try target.importArchive(archive, password: Self.password, policy: .replaceExisting)
        #expect(report == ImportReport(imported: 1, replaced: 1))
        let after = try contents(of: target)
        #expect(item("first", in: after) == item("first", in: archived))
        #expect(item("second", in: after) == item("second", in: archived))
        #expect(item("unrelated", in: after) != nil)
        #expect(throws: KeychainError.itemNotFound) {
            try target.find(ItemQuery(itemClass: .genericPassword, persistentReference: oldReference), by: owner)
        }
    }

    /// Replacing finds the existing item through its class's UNIQUE index, not by reading
    /// the table: an import into a large keychain stays one lookup an item.
    @Test func replacingFindsTheExistingItemThroughItsKeyIndex() throws {
        let source = try makeSource()
        for item in try KeychainArchive.open(export(source), password: Self.password) {
            let row = try source.newRow(item.record, secret: item.secret)
            let plan = try source.database.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + row.deleteSameIdentitySQL,
                                 arguments: [row.columns.service, row.columns.server, row.columns.account, row.columns.identity])
                    .map { $0["detail"] as String }
                    .joined(separator: "\n")
            }
            #expect(plan.contains("USING INDEX") && plan.contains("_key "), "\(item.record.itemClass): \(plan)")
            #expect(!plan.contains("SCAN item"), "\(plan)")
        }
    }

    @Test func failOnDuplicateImportsNothing() throws {
        let (target, archive, _) = try collision()
        let before = try contents(of: target)
        #expect(throws: KeychainError.duplicateItem) {
            try target.importArchive(archive, password: Self.password, policy: .failOnDuplicate)
        }
        #expect(try contents(of: target) == before)
    }

    /// A dry run reports what each policy would do, or fails as it would, and changes nothing.
    @Test func aDryRunReportsTheImportAndChangesNothing() throws {
        let (target, archive, _) = try collision()
        let before = try contents(of: target)
        func dryRun(_ policy: ImportPolicy) throws -> ImportReport {
            try target.importArchive(archive, password: Self.password, policy: policy, dryRun: true)
        }
        #expect(try dryRun(.keepExisting) == ImportReport(imported: 1, skipped: 1))
        #expect(try dryRun(.replaceExisting) == ImportReport(imported: 1, replaced: 1))
        #expect(throws: KeychainError.duplicateItem) { try dryRun(.failOnDuplicate) }
        #expect(try contents(of: target) == before)
    }

    /// The identity includes the access group and the synchronizable flag, as an item's
    /// primary key does.
    @Test func theSameAccountInAnotherGroupOrSyncStateIsAnotherItem() throws {
        let source = try Self.makeStore("archive-source")
        let attributes: [String: AttributeValue] = ["acct": .string("a"), "svce": .string("s")]
        _ = try source.add(NewItem(itemClass: .genericPassword, attributes: attributes), by: owner)
        let target = try Self.makeStore("archive-target")
        _ = try target.add(NewItem(itemClass: .genericPassword, attributes: attributes.merging(["agrp": .string(Self.shared)]) { $1 }),
                           by: owner)
        _ = try target.add(NewItem(itemClass: .genericPassword, attributes: attributes, isSynchronizable: true), by: owner)
        let report = try target.importArchive(export(source), password: Self.password, policy: .failOnDuplicate)
        #expect(report == ImportReport(imported: 1))
        #expect(try contents(of: target).count == 3)
    }
}
