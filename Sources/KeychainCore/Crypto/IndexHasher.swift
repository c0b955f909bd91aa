import Crypto
import Foundation
import Synchronization

/// Keyed HMAC-SHA256 over canonical attribute bytes: equal values give equal hashes, so
/// equality search is an index lookup, while the values stay unreadable without the key.
final class IndexHasher: Sendable {
    /// The HMAC state after absorbing the key, copied for each hash (its digest state is
    /// copy-on-write), which saves the key set-up on every call.
    private let keyed: HMAC<SHA256>

    /// Hashes of access groups: every operation needs the caller's, and a process holds few.
    private let accessGroupHashes = Mutex<[String: Data]>([:])

    init(key: SymmetricKey) {
        keyed = HMAC<SHA256>(key: key)
    }

    /// The hash in the access-group column.
    func accessGroupHash(_ group: String) -> Data {
        if let hash = accessGroupHashes.withLock({ $0[group] }) { return hash }
        let hash = self.hash(ItemSchema.accessGroup.code, Data(group.utf8))
        accessGroupHashes.withLock { cache in
            if cache.count < 1024 { cache[group] = hash }
        }
        return hash
    }

    /// The hash stored in an attribute's column. The code separates attributes, so an
    /// account and a service with the same text hash differently.
    func hash(_ code: String, _ canonical: Data) -> Data {
        var mac = keyed
        var code = code
        code.withUTF8 { mac.update(data: UnsafeRawBufferPointer($0)) }
        withUnsafeBytes(of: UInt8(0)) { mac.update(data: $0) }
        mac.update(data: canonical)
        return mac.finalize().withUnsafeBytes { Data($0) }
    }

    /// The hash of an item's identity: its class and every primary-key field, the access
    /// group and the synchronizable flag included. A UNIQUE column of these makes the
    /// database itself reject a second item with the same key.
    func identity(of record: ItemRecord) throws(KeychainError) -> Data {
        var message = Array("identity \(record.itemClass.rawValue)".utf8)
        let fields = record.itemClass.schema.primaryKey + [ItemSchema.accessGroup, ItemSchema.synchronizable]
        for attribute in fields {
            let bytes = try record.canonicalBytes(of: attribute) ?? attribute.defaultCanonicalBytes
            message.append(contentsOf: attribute.code.utf8)
            withUnsafeBytes(of: Int64(bytes.count).bigEndian) { message.append(contentsOf: $0) }
            message.append(contentsOf: bytes)
        }
        return authenticate(message)
    }

    private func authenticate(_ message: [UInt8]) -> Data {
        var mac = keyed
        mac.update(data: message)
        return mac.finalize().withUnsafeBytes { Data($0) }
    }
}
