import Crypto
import Foundation
@testable import KeychainCore
import Testing

/// Format 4 at rest, byte for byte: for fixed keys, nonces and inputs, the hashed columns
/// of a row and its two sealed parts are what the format wrote when these values were
/// recorded. Work that makes an add cheaper must leave every stored byte as it was, or
/// existing keychains would no longer find or open their items.
@Suite struct StoredLayoutPinTests {
    let hasher = IndexHasher(key: SymmetricKey(data: Data(repeating: 0x11, count: 32)))
    let classKey = KeyedAESGCM(key: SymmetricKey(data: Data(repeating: 0x22, count: 32)))!
    let rowNonce = Data([0x81, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08])
    /// The two AES-GCM nonces a write draws, fixed here.
    let random = ArraySlice((0..<24).map { UInt8($0) })
    let when = Date(timeIntervalSinceReferenceDate: 784_000_000.25)

    func hex(_ data: Data?) -> String { data.map { Hex.string($0) } ?? "nil" }

    func sealed(_ record: ItemRecord, secret: Data) throws -> (columns: StoredColumns, attributes: Data, secret: Data?) {
        let columns = try StoredColumns(record: record, hasher: hasher)
        let parts = try ItemSealing.seal(attributes: RecordCodec.encode(record.attributes), secret: secret,
                                         columns: columns, rowNonce: rowNonce, key: classKey, random: random)
        return (columns, parts.attributes, parts.secret)
    }

    @Test("format 4 pinned: a generic password's hashed columns and sealed parts keep their bytes")
    func genericPasswordRow() throws {
        let record = ItemRecord(itemClass: .genericPassword, attributes: [
            "acct": .string("alice"), "svce": .string("mail"), "agrp": .string("com.example.app"),
            "pdmn": .string("ck"), "sync": .number(0), "cdat": .date(when), "mdat": .date(when),
            "labl": .string("Mail password"),
        ])
        let row = try sealed(record, secret: Data("correct horse".utf8))
        // The column of an attribute is HMAC-SHA256 of its code, a zero byte and its bytes,
        // computed here by swift-crypto's one-shot HMAC, apart from IndexHasher's kept state.
        let key = SymmetricKey(data: Data(repeating: 0x11, count: 32))
        #expect(row.columns.account == Data(HMAC<SHA256>.authenticationCode(for: Data("acct\u{0}alice".utf8), using: key)))
        #expect(hex(row.columns.account) == "77b30221ba43bfa2083937334200bcb4bcfe3c33c66eaf1e59f00b1cad7ffd6c")
        #expect(hex(row.columns.service) == "ea5fb38ceb9541f2291a0513caafa0163eceb14981eaa89ca3b958fdd13d9051")
        #expect(hex(row.columns.accessGroup) == "916c2d0514addc2248ddbe2bca010ed16d7685681a58ef757a92c4ab00a742a6")
        #expect(row.columns.server == nil)
        #expect(hex(row.columns.identity) == "e8e7ceb55cbcecc0ac83709b3399239ca3f85d2c6b0e8fbab21b7a25ceff89f8")
        #expect(row.columns.keyLookup == nil)
        #expect(hex(row.attributes) == (
            "000102030405060708090a0b47c4f67cd859fbc4383610e82835c01f7028a62531d26483ef2d16ddfb31d8b81a5953e4" +
            "708a63bd0aa4c177abe1b980fd2ce9379d807989f093696f2fcb5c0498b9925e85bf7b5170594dc6e7026799237d7a17" +
            "6d5b16c9ce130bae2aba324d96fefb227d82cd455b85875808693c510e736b2ef0f03ab3cb541a91cdb4e5b6a0dd1ba0" +
            "7eeb069dc79ce4f8eb6981c30f7e290ea699a017896548f39d1a81c5bef762b15de3138a12d145d4b9ae7dd51c2d8dd8" +
            "8d6abe18a6dfee25cdc6f8725fa766f3aa603142501f4434efefc445f240621ae4b79a0954d6927e49ef6eeb87c845fc" +
            "298a6357a7a9b11cae5cb6a98cb98a0c28452c1f08f653fc4c96e97c9c91c5e40b9d900845f93c3d5d296cbd"))
        #expect(hex(row.secret) == (
            "0c0d0e0f1011121314151617b7eafe01dad36472f5daeebcf15c4e31dc4719f769530816ed19f985afe5d668c112b198" +
            "8b8bed2f9585f4533b77a762"))
    }

    @Test("format 4 pinned: a key's lookup columns and sealed parts keep their bytes")
    func keyRow() throws {
        let record = ItemRecord(itemClass: .key, attributes: [
            "kcls": .number(1), "klbl": .data(Data(repeating: 0xAB, count: 20)), "atag": .data(Data("com.example.tag".utf8)),
            "type": .number(73), "bsiz": .number(256), "agrp": .string("com.example.app"), "pdmn": .string("ak"),
            "sync": .number(0), "cdat": .date(when), "mdat": .date(when),
        ])
        let row = try sealed(record, secret: Data(repeating: 0x5C, count: 32))
        #expect(hex(row.columns.identity) == "d6d8ccede6b7408b632d0a57a3077f52ff4b8bc610fb73aeb7dc92412206b9f6")
        #expect(hex(row.columns.keyLookup?.applicationTag) == "b12382ae9931705d7fac2ce9bca1fc560710f95e00d385e6df5684a3d08ea22c")
        #expect(hex(row.columns.keyLookup?.applicationLabel) == "8b3b7bbc0687b916a110631809ca4d6fba5fc3105af1f3e17691c727a269e7b4")
        #expect(row.columns.keyLookup?.publicKeyHash == nil)
        #expect(hex(row.attributes) == (
            "000102030405060708090a0b47c4f678c95dfbc438361aea2b318d1f0c28ac272dc44ae29f5271d3e27edaa47b342387" +
            "76cb6fe31fd8c37ebaf9a8ae894d867238ae62f3be93696b4baa3e68ebb9925f88f6795c7d0d49a7947118b796440c7a" +
            "293a62b9a57067d5057d6f3f9edefb2279f2a92834f2ec346a073b3a0a0009e63e28911860fbdc5b0f734a6e7218d365" +
            "d540ad91aaf8858c9f6981c3873fee53d499801789613897f074f2c5bef760d036e760f37cb22bd4b9ae75d51c2d8dd8" +
            "8d6abe1cd2a69e40a3c6f87257a766f3aa603142199f4434efefc445f240621ae4b79a0954d6927e49ef6eeb87c845fc" +
            "298a6357a7a9b11cae5cb6a98cb98a0c28452c1f08f653fc4c96e97c3afb4a4934ec628a1ff4deaf07e97aaf"))
        #expect(hex(row.secret) == (
            "0c0d0e0f101112131415161788d9d02fe3ec4c0ec1e9c093c880126d801b45ab350f544ab145a5d9f3b98a34a01e33cc" +
            "a1b5a0d8a1829fac35d96b8af2c5c04c2f1d7ad3827f03fff4d846ee1f532b3f782caf218d25d9b79246fcac"))
    }
}
