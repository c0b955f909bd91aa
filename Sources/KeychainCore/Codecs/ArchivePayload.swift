import Foundation

/// The plaintext of a keychain archive (``KeychainArchive``), integers big-endian: the item
/// count (4 bytes), then per item its class code (`genp`, 4 bytes), its attributes in
/// ``RecordCodec`` form and its secret, each of these two after a 4-byte length.
///
/// Every field is framed by the count or a length, so any truncation, and any byte after the
/// last item, is errSecDecode. What the items say is checked by the archive, not here.
enum ArchivePayload {
    /// The payload of `items`. errSecParam for an item whose attributes or secret are longer
    /// than a 4-byte length gives, or for more items than it counts.
    static func encode(_ items: [KeychainArchive.Item]) throws(KeychainError) -> [UInt8] {
        var payload: [UInt8] = []
        try appendLength(items.count, to: &payload)
        for item in items {
            payload.append(contentsOf: item.record.itemClass.rawValue.utf8)
            let attributes = try RecordCodec.encode(item.record.attributes)
            try appendLength(attributes.count, to: &payload)
            payload.append(contentsOf: attributes)
            try appendLength(item.secret.count, to: &payload)
            payload.append(contentsOf: item.secret)
        }
        return payload
    }

    /// The items of a payload ``encode(_:)`` wrote, in order; errSecDecode for anything else.
    static func decode(_ payload: [UInt8]) throws(KeychainError) -> [KeychainArchive.Item] {
        var reader = ByteReader(bytes: payload)
        var items: [KeychainArchive.Item] = []
        // No capacity reserved from the count: a hostile count must not allocate.
        for _ in 0..<(try reader.length()) {
            guard let itemClass = ItemClass(rawValue: String(decoding: try reader.take(4), as: UTF8.self)) else {
                throw KeychainArchive.damaged("an item has an unknown class")
            }
            let attributes = try RecordCodec.decode(Data(try reader.take(try reader.length())))
            let secret = Data(try reader.take(try reader.length()))
            items.append(KeychainArchive.Item(record: ItemRecord(itemClass: itemClass, attributes: attributes), secret: secret))
        }
        guard reader.isAtEnd else { throw KeychainArchive.damaged("it has bytes after its last item") }
        return items
    }

    private static func appendLength(_ count: Int, to bytes: inout [UInt8]) throws(KeychainError) {
        guard let length = UInt32(exactly: count) else { throw .param("an item is too large for an archive") }
        withUnsafeBytes(of: length.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
