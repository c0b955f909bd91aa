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
///
/// The secret of an item with an access control is sealed as a part of its own (the
/// ``StoredColumns/Part/guardedSecret`` byte in its associated data), with the access
/// control's flags before it: whoever opens it learns what it asks for without opening the
/// attributes, and no code that opens only plain secrets can hand it out.
enum ItemSealing {
    /// Seals both parts, each under one of the two 12-byte AES-GCM nonces in `random`; the
    /// secret guarded by `guardFlags` when given.
    static func seal(attributes: Data, secret: Data?, guardFlags: Int64? = nil, columns: StoredColumns, rowNonce: Data,
                     key: KeyedAESGCM, random: ArraySlice<UInt8>? = nil) throws(KeychainError) -> (attributes: Data, secret: Data?) {
        try seal(attributesCount: attributes.count, { $0.write(attributes) }, secret: secret, guardFlags: guardFlags,
                 columns: columns, rowNonce: rowNonce, key: key, random: random)
    }

    /// Seals a record's attributes, in their byte form (``RecordCodec``), and its secret, as
    /// ``seal(attributes:secret:columns:rowNonce:key:random:)`` does, without the byte form
    /// taking an allocation of its own.
    static func seal(record attributes: [String: AttributeValue], secret: Data?, columns: StoredColumns,
                     rowNonce: Data, key: KeyedAESGCM,
                     random: ArraySlice<UInt8>? = nil) throws(KeychainError) -> (attributes: Data, secret: Data?) {
        let form = try RecordCodec.Form(attributes)
        let guardFlags: Int64? = if case .number(let flags)? = attributes[ItemSchema.accessControl.code] { flags } else { nil }
        return try seal(attributesCount: form.count, form.write, secret: secret, guardFlags: guardFlags, columns: columns,
                        rowNonce: rowNonce, key: key, random: random)
    }

    /// Both seals, with the plaintexts padded in a temporary buffer each and the associated
    /// data in a third, changed in place from one part to the other.
    private static func seal(attributesCount: Int, _ writeAttributes: (inout ByteWriter) -> Void, secret: Data?,
                             guardFlags: Int64?, columns: StoredColumns, rowNonce: Data, key: KeyedAESGCM,
                             random: ArraySlice<UInt8>?) throws(KeychainError) -> (attributes: Data, secret: Data?) {
        let start = random?.startIndex ?? 0
        return try columns.withAssociatedData(nonce: rowNonce, layout: .padded) { aad throws(KeychainError) in
            let sealedAttributes = try SizeClassPadding.withPadded(count: attributesCount, writeAttributes) {
                plaintext throws(KeychainError) in
                try RecordSealer.seal(plaintext, with: key, binding: aad(.attributes),
                                      nonce: random?[start..<start + 12])
            }
            let sealedSecret = try secret.map { secret throws(KeychainError) in
                let count = secret.count + (guardFlags == nil ? 0 : 8)
                return try SizeClassPadding.withPadded(count: count, { writer in
                    if let guardFlags { writer.write(bigEndian: guardFlags) }
                    writer.write(secret)
                }) { plaintext throws(KeychainError) in
                    try RecordSealer.seal(plaintext, with: key, binding: aad(guardFlags == nil ? .secret : .guardedSecret),
                                          nonce: random?[start + 12..<start + 24])
                }
            }
            return (sealedAttributes, sealedSecret)
        }
    }

    /// Opens a row's secret, plain or guarded, with the flags of its guard; errSecDecode when
    /// it is damaged, moved, or sealed under another key.
    static func openSecret(_ sealed: Data, columns: StoredColumns, rowNonce: Data,
                           key: KeyedAESGCM) throws(KeychainError) -> (data: Data, guardFlags: Int64?) {
        // Plain first: what nearly every secret is, at the cost of one failed tag for the others.
        // Both padded forms' associated data is written once, into a temporary buffer whose
        // part byte changes in place (a `Data` of it cost every find an allocation and a copy).
        let padded = try columns.withAssociatedData(nonce: rowNonce, layout: .padded) {
            aad throws(KeychainError) -> (data: Data, guardFlags: Int64?)? in
            if let plaintext = try? RecordSealer.open(sealed, with: key, binding: aad(.secret)) {
                return (try SizeClassPadding.unpad(plaintext), nil)
            }
            if var plaintext = try? RecordSealer.open(sealed, with: key, binding: aad(.guardedSecret)) {
                defer { plaintext.zeroize() }
                let unpadded = try SizeClassPadding.unpad(plaintext)
                guard unpadded.count >= 8 else { throw .decode }
                let flags = unpadded.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
                return (Data(unpadded.dropFirst(8)), flags)
            }
            return nil
        }
        if let padded { return padded }
        let unpadded = columns.associatedData(nonce: rowNonce, part: .secret, layout: .unpadded)
        return (try RecordSealer.open(sealed, with: key, binding: unpadded), nil)
    }

    /// Opens one part of a row; errSecDecode when it is damaged, moved, or sealed under
    /// another key.
    static func open(_ sealed: Data, part: StoredColumns.Part, columns: StoredColumns, rowNonce: Data,
                     key: KeyedAESGCM) throws(KeychainError) -> Data {
        let padded = columns.associatedData(nonce: rowNonce, part: part, layout: .padded)
        if let plaintext = try? RecordSealer.open(sealed, with: key, binding: padded) {
            return try SizeClassPadding.unpad(plaintext)
        }
        let unpadded = columns.associatedData(nonce: rowNonce, part: part, layout: .unpadded)
        return try RecordSealer.open(sealed, with: key, binding: unpadded)
    }
}
