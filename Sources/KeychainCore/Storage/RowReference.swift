import Foundation

/// How a persistent reference's 16-byte UUID locates its row: a version-8 UUID whose first
/// half is the row id and whose second half is the row's random nonce.
///
/// The row id finds the row through the table's own key, with no index to maintain; the
/// nonce, stored in the row, makes a reference to a deleted item fail to resolve a later
/// item that reuses its id. Layout (RFC 9562, section 5.8): the id's bits 59–12 in bytes 0–5, the
/// version 8 and the id's bits 11–8 in byte 6, its bits 7–0 in byte 7; bytes 8–15 are the
/// nonce, whose first byte carries the variant bits.
enum RowReference {
    /// Row ids stay below this (a CHECK in the schema), so that they fit a reference.
    static let idLimit: Int64 = 1 << 60

    /// A nonce for a new row from 8 random bytes, with the UUID variant bits set.
    static func makeNonce(from random: some Collection<UInt8> = RandomBytes.draw(8)) -> Data {
        var nonce = Data(random.prefix(8))
        nonce[0] = nonce[0] & 0x3F | 0x80
        return nonce
    }

    /// The reference to a row.
    static func reference(itemClass: ItemClass, rowID: Int64, nonce: Data) -> PersistentReference {
        precondition(rowID > 0 && rowID < idLimit && nonce.count == 8, "the schema bounds row ids and nonces")
        let id = UInt64(rowID)
        // Written into the UUID's own bytes: this runs for every item a search finds.
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: id >> (12 + 8 * (5 - index))) }
            bytes[6] = 0x80 | UInt8(truncatingIfNeeded: id >> 8) & 0x0F
            bytes[7] = UInt8(truncatingIfNeeded: id)
            nonce.withUnsafeBytes { nonce in
                UnsafeMutableRawBufferPointer(rebasing: bytes[8..<16]).copyMemory(from: nonce)
            }
        }
        return PersistentReference(itemClass: itemClass, id: UUID(uuid: uuid))
    }

    /// The row id and nonce a reference names, or nil when its UUID is not of this layout
    /// (then it names no item).
    static func location(of reference: PersistentReference) -> (rowID: Int64, nonce: Data)? {
        let bytes = withUnsafeBytes(of: reference.id.uuid) { Array($0) }
        guard bytes[6] & 0xF0 == 0x80, bytes[8] & 0xC0 == 0x80 else { return nil }
        var id: UInt64 = 0
        for index in 0..<6 { id = id << 8 | UInt64(bytes[index]) }
        id = id << 4 | UInt64(bytes[6] & 0x0F)
        id = id << 8 | UInt64(bytes[7])
        guard id > 0 else { return nil }
        return (Int64(id), Data(bytes[8..<16]))
    }
}
