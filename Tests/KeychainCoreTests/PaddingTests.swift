import Crypto
import Foundation
import GRDB
@testable import KeychainCore
import Testing
import TestSupport

/// Less metadata at rest: what is sealed is padded to a size class, so a stored length
/// reveals the class, not the length of a secret or of an account name.
@Suite struct PaddingTests {
    let caller = CallerIdentity(accessGroups: ["com.example.app"])

    func store(_ purpose: String) throws -> KeychainStore {
        let folder = TestScratch.folder(purpose)
        return try KeychainStore.open(KeychainFiles(directory: folder.appendingPathComponent("keychains"), name: "work",
                                                    machineSecret: folder.appendingPathComponent("machine")))
    }

    func add(_ store: KeychainStore, account: String, secret: Data) throws {
        _ = try store.add(NewItem(itemClass: .genericPassword,
                                  attributes: ["acct": .string(account), "svce": .string("svc"), "pdmn": .string("ck")],
                                  data: secret), by: caller)
    }

    /// The stored lengths of each row's sealed attributes and secret, in insertion order.
    func storedLengths(_ store: KeychainStore) throws -> [(attributes: Int, secret: Int)] {
        try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT length(attributes) AS a, length(secret) AS s FROM item ORDER BY id")
                .map { ($0["a"], $0["s"]) }
        }
    }

    @Test("at rest: secrets of 1, 12 and 31 bytes store the same length; 32 bytes store the next class")
    func secretLengthsShowOnlyTheirClass() throws {
        let store = try store("secret-sizes")
        for (index, length) in [1, 12, 31, 32, 4095, 4096].enumerated() {
            try add(store, account: "a\(index)", secret: Data(repeating: 0x41, count: length))
        }
        let stored = try storedLengths(store).map(\.secret)
        // AES-GCM adds a 12-byte nonce and a 16-byte tag to the padded plaintext.
        #expect(stored == [32, 32, 32, 64, 4096, 8192].map { $0 + 28 })
    }

    @Test("at rest: account names of different lengths store attributes of the same length")
    func attributeLengthsShowOnlyTheirClass() throws {
        let store = try store("attribute-sizes")
        try add(store, account: "al", secret: Data("x".utf8))
        try add(store, account: "alexandra", secret: Data("x".utf8))
        let stored = try storedLengths(store).map(\.attributes)
        #expect(stored[0] == stored[1])
        // A power of two, from 32 to 4096, and AES-GCM's 28 bytes.
        #expect([32, 64, 128, 256, 512, 1024, 2048, 4096].contains(stored[0] - 28))
    }

    @Test("format 2: an item sealed before padding existed still opens, and is padded when next written")
    func unpaddedRowsStillOpen() throws {
        let store = try store("format-2")
        try add(store, account: "old", secret: Data("0123456789".utf8))
        // Seal the row again as format 2 did: the plaintext as it is, under format 2's
        // associated data.
        let key = try store.classKey(for: .afterFirstUnlock)
        try store.database.write { db in
            var first: StoredRow?
            try DirectStatement(db, sql: "SELECT \(StoredRow.selectedColumns), secret FROM item", values: [])
                .forEachRow { statement in
                    first = try StoredRow(statement: statement)
                    return false
                }
            let row = try #require(first)
            let aad = row.columns.associatedData(nonce: row.nonce, layout: .unpadded)
            let attributes = try ItemSealing.open(row.sealedAttributes, part: .attributes, columns: row.columns,
                                                  rowNonce: row.nonce, key: key)
            try db.execute(sql: "UPDATE item SET attributes = ?, secret = ?", arguments: [
                try RecordSealer.seal(attributes, with: key, binding: aad.attributes),
                try RecordSealer.seal(Data("0123456789".utf8), with: key, binding: aad.secret),
            ])
        }
        #expect(try storedLengths(store)[0].secret == 10 + 28)
        let query = ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("old")], limit: .all,
                              returning: [.data, .attributes])
        let found = try store.find(query, by: caller)
        #expect(found.first?.data == Data("0123456789".utf8))
        try store.update(query, with: ItemChanges(attributes: ["labl": .string("new label")], data: nil), by: caller)
        #expect(try storedLengths(store)[0].secret == 32 + 28)
        #expect(try store.find(query, by: caller).first?.data == Data("0123456789".utf8))
    }

    @Test("padding round trip: plaintexts ending in zero or 0x80 bytes come back whole, from slices too")
    func unpadReturnsThePlaintext() throws {
        let plaintexts = [Data(), Data([0]), Data([0x80]), Data([0x80, 0]), Data([1, 0, 0]),
                          Data(repeating: 0, count: 31), Data(repeating: 0x80, count: 32), Data((0..<100).map { UInt8($0) })]
        for plaintext in plaintexts {
            let padded = try SizeClassPadding.withPadded(count: plaintext.count, { $0.write(plaintext) }) { Data($0) }
            #expect(padded.count == SizeClassPadding.paddedCount(plaintext.count))
            #expect(try SizeClassPadding.unpad(padded) == plaintext)
            // A slice that does not start at zero, as a part of a larger buffer.
            let slice = (Data([0xFF, 0xFF]) + padded).dropFirst(2)
            #expect(try SizeClassPadding.unpad(slice) == plaintext)
        }
    }

    @Test("padding: bytes without the 0x80 marker before the zeros are errSecDecode")
    func unpadRefusesMalformedPadding() {
        for bad in [Data(), Data(repeating: 0, count: 32), Data([1, 2, 3, 0]), Data([0x80, 0x81]), Data([0x7F])] {
            #expect(throws: KeychainError.decode) { try SizeClassPadding.unpad(bad) }
        }
    }
}
