import Crypto
import Foundation

/// Keyed HMAC-SHA256 over canonical attribute bytes: equal values give equal hashes, so
/// equality search is an index lookup, while the values stay unreadable without the key.
struct IndexHasher: Sendable {
    let key: SymmetricKey

    /// The hash stored in an attribute's column. The code separates attributes, so an
    /// account and a service with the same text hash differently.
    func hash(_ code: String, _ canonical: Data) -> Data {
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: Data(code.utf8))
        mac.update(data: [0])
        mac.update(data: canonical)
        return Data(mac.finalize())
    }

    /// The hash of an item's identity: its class and every primary-key field, the access
    /// group and the synchronizable flag included. A UNIQUE column of these makes the
    /// database itself reject a second item with the same key.
    func identity(of record: ItemRecord) throws(KeychainError) -> Data {
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: Data("identity \(record.itemClass.rawValue)".utf8))
        let fields = record.itemClass.schema.primaryKey + [ItemSchema.accessGroup, ItemSchema.synchronizable]
        for attribute in fields {
            let bytes = try record.canonicalBytes(of: attribute) ?? attribute.defaultCanonicalBytes
            mac.update(data: Data(attribute.code.utf8))
            mac.update(data: Attribute.bytes(of: Int64(bytes.count)))
            mac.update(data: bytes)
        }
        return Data(mac.finalize())
    }
}
