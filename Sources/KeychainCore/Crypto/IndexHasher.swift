import Crypto
import Foundation
import Synchronization

/// Keyed HMAC-SHA256 over canonical attribute bytes: equal values give equal hashes, so
/// equality search is an index lookup, while the values stay unreadable without the key.
final class IndexHasher: Sendable {
    /// The HMAC state after absorbing the key, copied for each hash (its digest state is
    /// copy-on-write), which saves the key set-up on every call.
    private let keyed: HMAC<SHA256>

    /// Recent hashes of the attributes that take few values: access groups (every operation
    /// hashes the caller's), services and servers (an app uses a handful). Accounts vary,
    /// so they are not kept. Bounded, so a caller with many services only misses.
    private let recentHashes = Mutex<[HashInput: Data]>([:])
    private static let recentLimit = 1_024

    private struct HashInput: Hashable {
        let code: String
        let canonical: Data
    }

    init(key: SymmetricKey) {
        keyed = HMAC<SHA256>(key: key)
    }

    /// The hash in the access-group column.
    func accessGroupHash(_ group: String) -> Data {
        hash(ItemSchema.accessGroup.code, Data(group.utf8))
    }

    /// The hash stored in an attribute's column. The code separates attributes, so an
    /// account and a service with the same text hash differently.
    func hash(_ code: String, _ canonical: Data) -> Data {
        let kept = code == ItemSchema.accessGroup.code || code == ItemSchema.service.code
            || code == ItemSchema.server.code
        guard kept else { return computeHash(code, canonical) }
        let input = HashInput(code: code, canonical: canonical)
        if let hash = recentHashes.withLock({ $0[input] }) { return hash }
        let hash = computeHash(code, canonical)
        recentHashes.withLock { recent in
            if recent.count < Self.recentLimit { recent[input] = hash }
        }
        return hash
    }

    /// HMAC of the code, a zero byte and the canonical bytes.
    private func computeHash(_ code: String, _ canonical: Data) -> Data {
        var code = code
        return code.withUTF8 { code in
            withUnsafeTemporaryAllocation(byteCount: code.count + 1 + canonical.count, alignment: 1) { message in
                message.copyMemory(from: UnsafeRawBufferPointer(code))
                message[code.count] = 0
                canonical.copyBytes(to: message.baseAddress!.advanced(by: code.count + 1)
                    .assumingMemoryBound(to: UInt8.self), count: canonical.count)
                return authenticate(UnsafeRawBufferPointer(message))
            }
        }
    }

    /// The hash of an item's identity: its class and every primary-key field, the access
    /// group and the synchronizable flag included. A UNIQUE index on it makes the database
    /// itself reject a second item with the same key.
    func identity(of record: ItemRecord) throws(KeychainError) -> Data {
        var message = Array("identity \(record.itemClass.rawValue)".utf8)
        let fields = record.itemClass.schema.primaryKey + [ItemSchema.accessGroup, ItemSchema.synchronizable]
        for attribute in fields {
            let bytes = try record.canonicalBytes(of: attribute) ?? attribute.defaultCanonicalBytes
            message.append(contentsOf: attribute.code.utf8)
            withUnsafeBytes(of: Int64(bytes.count).bigEndian) { message.append(contentsOf: $0) }
            message.append(contentsOf: bytes)
        }
        return message.withUnsafeBytes(authenticate)
    }

    /// One HMAC over a message in one piece: each `update` is a generic call into
    /// swift-crypto, which costs more than the bytes.
    private func authenticate(_ message: UnsafeRawBufferPointer) -> Data {
        var mac = keyed
        mac.update(data: message)
        return mac.finalize().withUnsafeBytes { Data($0) }
    }
}
