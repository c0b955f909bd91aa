import Crypto
import Foundation
import Synchronization

/// Keyed HMAC-SHA256 over canonical attribute bytes: equal values give equal hashes, so
/// equality search is an index lookup, while the values stay unreadable without the key.
final class IndexHasher: Sendable {
    /// The HMAC under the index key, set up once.
    private let keyed: KeyedHMACSHA256

    /// Recent hashes of the attributes that take few values: access groups (every operation
    /// hashes the caller's), services and servers (an app uses a handful). Accounts vary,
    /// so they are not kept. Bounded, so a caller with many services only misses.
    private let recentHashes = Mutex<[HashInput: Data]>([:])
    private static let recentLimit = 1_024

    private struct HashInput: Hashable {
        let code: String
        let canonical: Data
    }

    /// The last hash of each kept attribute (access group, service, server), looked at before
    /// ``recentHashes``: a program asks for the same group and service call after call, and
    /// comparing bytes costs a fraction of hashing the code and bytes into a dictionary key.
    private let lastHashes = Mutex<[(canonical: Data, hash: Data)?]>([nil, nil, nil])

    init(key: SymmetricKey) {
        keyed = KeyedHMACSHA256(key: key)
    }

    /// The hash of one lookup attribute in the `item_pair` table (``LookupPairTable``): the
    /// name's length and bytes, then the value's, under a code no attribute has.
    func lookupPairHash(_ pair: LookupPair) -> Data {
        var canonical = Data()
        LookupAttributeSet.append(UInt32(pair.name.utf8.count), to: &canonical)
        canonical.append(contentsOf: Array(pair.name.utf8))
        canonical.append(contentsOf: Array(pair.value.utf8))
        return computeHash("lookup pair", canonical)
    }

    /// The hash in the access-group column.
    func accessGroupHash(_ group: String) -> Data {
        hash(ItemSchema.accessGroup.code, Data(utf8Of: group))
    }

    /// The hash stored in an attribute's column. The code separates attributes, so an
    /// account and a service with the same text hash differently.
    func hash(_ code: String, _ canonical: Data) -> Data {
        canonical.withUnsafeBytes { hash(code, bytes: $0, canonical: canonical) }
    }

    /// ``hash(_:_:)`` of a text attribute given as a string, whose canonical bytes are its
    /// UTF-8: read in place, as a `Data` of them cost a find an allocation and a free for
    /// each of its account and service.
    func hash(_ code: String, utf8Of string: String) -> Data {
        var string = string
        return string.withUTF8 { hash(code, bytes: UnsafeRawBufferPointer($0), canonical: nil) }
    }

    /// The hash of `bytes`, which `canonical` holds when the caller has them as `Data`.
    private func hash(_ code: String, bytes: UnsafeRawBufferPointer, canonical: Data?) -> Data {
        let slot = code == ItemSchema.accessGroup.code ? 0 : code == ItemSchema.service.code ? 1
            : code == ItemSchema.server.code ? 2 : nil
        guard let slot else { return computeHash(code, bytes) }
        if let hash = lastHashes.withLock({ last in last[slot].flatMap { Self.equal($0.canonical, bytes) ? $0.hash : nil } }) {
            return hash
        }
        let canonical = canonical ?? Data(bytes)
        let input = HashInput(code: code, canonical: canonical)
        let hash = recentHashes.withLock({ $0[input] }) ?? {
            let hash = computeHash(code, canonical)
            recentHashes.withLock { recent in
                if recent.count < Self.recentLimit { recent[input] = hash }
            }
            return hash
        }()
        lastHashes.withLock { $0[slot] = (canonical, hash) }
        return hash
    }

    /// HMAC of the code, a zero byte and the canonical bytes.
    private func computeHash(_ code: String, _ canonical: Data) -> Data {
        canonical.withUnsafeBytes { computeHash(code, $0) }
    }

    private func computeHash(_ code: String, _ canonical: UnsafeRawBufferPointer) -> Data {
        ByteWriter.withBytes(count: code.utf8.count + 1 + canonical.count, { writer in
            writer.write(code)
            writer.write(byte: 0)
            writer.write(canonical)
        }, keyed.authenticationCode(for:))
    }

    /// Whether `data` holds exactly `bytes`.
    private static func equal(_ data: Data, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard data.count == bytes.count else { return false }
        guard let start = bytes.baseAddress, bytes.count > 0 else { return true }
        return data.withUnsafeBytes { stored in stored.baseAddress.map { memcmp($0, start, bytes.count) == 0 } ?? false }
    }

    /// The hash of an item's identity from the canonical bytes of its class's
    /// ``ItemSchema/identityFields``, in order: every primary-key field, the access group and
    /// the synchronizable flag. A UNIQUE index on it makes the database itself reject a
    /// second item with the same key.
    func identity(of itemClass: ItemClass, fields: [(attribute: Attribute, bytes: Data)]) -> Data {
        ByteWriter.withBytes(count: Self.identityMessageCount(of: itemClass, fields: fields), { writer in
            Self.writeIdentityMessage(of: itemClass, fields: fields, to: &writer)
        }, keyed.authenticationCode(for:))
    }

    /// The length of an identity's message (``writeIdentityMessage(of:fields:to:)``).
    static func identityMessageCount(of itemClass: ItemClass, fields: [(attribute: Attribute, bytes: Data)]) -> Int {
        "identity \(itemClass.rawValue)".utf8.count
            + fields.reduce(0) { $0 + $1.attribute.code.utf8.count + 8 + $1.bytes.count }
    }

    /// What an identity hash authenticates: the class, then each field's code, length and
    /// canonical bytes. Sync carries the same bytes as an item's identity
    /// (``SyncedItem/identityBytes``), which are so the same on every machine.
    static func writeIdentityMessage(of itemClass: ItemClass, fields: [(attribute: Attribute, bytes: Data)],
                                     to writer: inout ByteWriter) {
        writer.write("identity \(itemClass.rawValue)")
        for (attribute, bytes) in fields {
            writer.write(attribute.code)
            writer.write(bigEndian: Int64(bytes.count))
            writer.write(bytes)
        }
    }
}
