import Crypto
import Foundation

/// How the two sealed parts of an item row (its attributes and its secret) are sealed and
/// opened: padded to a size class (``SizeClassPadding``), then sealed with AES-256-GCM under
/// the item's class key, with associated data that binds the part to its row (see
/// ``StoredColumns/associatedData(nonce:part:layout:)``).
///
/// Rows written before padding existed (format 2) are read as they are: a part that does
/// not open as padded is opened as unpadded, under associated data that names the other
/// layout, so the two can never be confused. Every write seals padded.
enum ItemSealing {
    /// Seals both parts, each under one of the two 12-byte AES-GCM nonces in `random`.
    static func seal(attributes: Data, secret: Data?, columns: StoredColumns, rowNonce: Data, key: SymmetricKey,
                     random: ArraySlice<UInt8>? = nil) throws(KeychainError) -> (attributes: Data, secret: Data?) {
        try seal(attributesCount: attributes.count, { $0.write(attributes) }, secret: secret, columns: columns,
                 rowNonce: rowNonce, key: key, random: random)
    }

    /// Seals a record's attributes, in their byte form (``RecordCodec``), and its secret, as
    /// ``seal(attributes:secret:columns:rowNonce:key:random:)`` does, without the byte form
    /// taking an allocation of its own.
    static func seal(record attributes: [String: AttributeValue], secret: Data?, columns: StoredColumns,
                     rowNonce: Data, key: SymmetricKey,
                     random: ArraySlice<UInt8>? = nil) throws(KeychainError) -> (attributes: Data, secret: Data?) {
        let form = try RecordCodec.Form(attributes)
        return try seal(attributesCount: form.count, form.write, secret: secret, columns: columns,
                        rowNonce: rowNonce, key: key, random: random)
    }

    /// Both seals, with the plaintexts padded in a temporary buffer each and the associated
    /// data in a third, changed in place from one part to the other.
    private static func seal(attributesCount: Int, _ writeAttributes: (inout ByteWriter) -> Void, secret: Data?,
                             columns: StoredColumns, rowNonce: Data, key: SymmetricKey,
                             random: ArraySlice<UInt8>?) throws(KeychainError) -> (attributes: Data, secret: Data?) {
        let start = random?.startIndex ?? 0
        return try columns.withAssociatedData(nonce: rowNonce, layout: .padded) { aad throws(KeychainError) in
            let sealedAttributes = try SizeClassPadding.withPadded(count: attributesCount, writeAttributes) {
                plaintext throws(KeychainError) in
                try RecordSealer.seal(plaintext, with: key, binding: aad(.attributes),
                                      nonce: random?[start..<start + 12])
            }
            let sealedSecret = try secret.map { secret throws(KeychainError) in
                try SizeClassPadding.withPadded(count: secret.count, { $0.write(secret) }) { plaintext throws(KeychainError) in
                    try RecordSealer.seal(plaintext, with: key, binding: aad(.secret), nonce: random?[start + 12..<start + 24])
                }
            }
            return (sealedAttributes, sealedSecret)
        }
    }

    /// Opens one part of a row; errSecDecode when it is damaged, moved, or sealed under
    /// another key.
    static func open(_ sealed: Data, part: StoredColumns.Part, columns: StoredColumns, rowNonce: Data,
                     key: SymmetricKey) throws(KeychainError) -> Data {
        let padded = columns.associatedData(nonce: rowNonce, part: part, layout: .padded)
        if let plaintext = try? RecordSealer.open(sealed, with: key, binding: padded) {
            return try SizeClassPadding.unpad(plaintext)
        }
        let unpadded = columns.associatedData(nonce: rowNonce, part: part, layout: .unpadded)
        return try RecordSealer.open(sealed, with: key, binding: unpadded)
    }
}
