import Crypto
import Foundation

/// Keyed HMAC-SHA256 over canonical attribute bytes: equal values give equal hashes, so
/// equality search is an index lookup, while the values stay unreadable without the key.
struct IndexHasher: Sendable {
    /// The HMAC state after absorbing the key, copied for each hash (its digest state is
    /// copy-on-write), which saves the key set-up on every call.
    private let keyed: HMAC<SHA256>

    init(key: SymmetricKey) {
        keyed = HMAC<SHA256>(key: key)
    }

    /// The hash stored in an attribute's column. The code separates attributes, so an
    /// account and a service with the same text hash differently.
    func hash(_ code: String, _ canonical: Data) -> Data {
        var message = Data(code.utf8)
        message.append(0)
        message.append(canonical)
        var mac = keyed
        mac.update(data: message)
        return Data(mac.finalize())
    }

    /// The hash of an item's identity: its class and every primary-key field, the access
    /// group and the synchronizable flag included. A UNIQUE column of these makes the
    /// database itself reject a second item with the same key.
    func identity(of record: ItemRecord) throws(KeychainError) -> Data {
        var message = Data("identity \(record.itemClass.rawValue)".utf8)
        let fields = record.itemClass.schema.primaryKey + [ItemSchema.accessGroup, ItemSchema.synchronizable]
        for attribute in fields {
            let bytes = try record.canonicalBytes(of: attribute) ?? attribute.defaultCanonicalBytes
            message.append(contentsOf: attribute.code.utf8)
            message.append(Attribute.bytes(of: Int64(bytes.count)))
            message.append(bytes)
        }
        var mac = keyed
        mac.update(data: message)
        return Data(mac.finalize())
    }
}
