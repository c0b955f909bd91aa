import Crypto
import Foundation
@testable import KeychainCore
import Testing

/// The secret of an item with an access control is sealed as a part of its own, its flags
/// first: opening it tells what it asks for, and it never opens as a plain secret.
@Suite struct GuardedSecretTests {
    let hasher = IndexHasher(key: SymmetricKey(data: Data(repeating: 0x11, count: 32)))
    let classKey = KeyedAESGCM(key: SymmetricKey(data: Data(repeating: 0x22, count: 32)))!
    let rowNonce = Data([0x81, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08])

    func record(accessControl: Int64?) -> ItemRecord {
        var attributes: [String: AttributeValue] = ["acct": .string("alice"), "svce": .string("mail"),
                                                    "agrp": .string("com.example.app"), "pdmn": .string("aku"), "sync": .number(0)]
        if let accessControl { attributes["accc"] = .number(accessControl) }
        return ItemRecord(itemClass: .genericPassword, attributes: attributes)
    }

    @Test("An item with an access control seals its secret guarded: it opens with its flags, and not as a plain secret")
    func guardedSecretOpensWithItsFlags() throws {
        let flags: Int64 = 1 << 31 | 1
        let guarded = record(accessControl: flags)
        let columns = try StoredColumns(record: guarded, hasher: hasher)
        let sealed = try ItemSealing.seal(record: guarded.attributes, secret: Data("s3cr3t".utf8), columns: columns,
                                          rowNonce: rowNonce, key: classKey)
        let secret = try #require(sealed.secret)
        let opened = try ItemSealing.openSecret(secret, columns: columns, rowNonce: rowNonce, key: classKey)
        #expect(opened.data == Data("s3cr3t".utf8))
        #expect(opened.guardFlags == flags)
        // Code that opens only plain secrets cannot hand it out.
        #expect(throws: KeychainError.decode) {
            try ItemSealing.open(secret, part: .secret, columns: columns, rowNonce: rowNonce, key: classKey)
        }
    }

    @Test("An item without an access control seals its secret plain, with no flags, as before")
    func plainSecretHasNoFlags() throws {
        let plain = record(accessControl: nil)
        let columns = try StoredColumns(record: plain, hasher: hasher)
        let sealed = try ItemSealing.seal(record: plain.attributes, secret: Data("s3cr3t".utf8), columns: columns,
                                          rowNonce: rowNonce, key: classKey)
        let secret = try #require(sealed.secret)
        let opened = try ItemSealing.openSecret(secret, columns: columns, rowNonce: rowNonce, key: classKey)
        #expect(opened.data == Data("s3cr3t".utf8) && opened.guardFlags == nil)
        #expect(try ItemSealing.open(secret, part: .secret, columns: columns, rowNonce: rowNonce, key: classKey) == Data("s3cr3t".utf8))
    }
}
