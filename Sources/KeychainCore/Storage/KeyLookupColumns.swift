import Foundation

/// The hashed columns that find a key by its application tag (`atag`) or application label
/// (`klbl`, the public-key hash), and a certificate by its public-key hash (`pkhh`): the
/// searches of nearly every program that keeps keys, and of identity forming, which joins a
/// certificate's `pkhh` to a key's `klbl`.
///
/// Each column holds the keyed hash of its own attribute (``IndexHasher/hash(_:_:)``, whose
/// code separates them), so equal tags give equal hashes but a certificate's hash never
/// equals its key's: the files show which items share a tag or label (a key pair's two
/// halves do), not which certificate belongs to which key. A column of another class is
/// NULL, and so is a certificate's `pkhh` when it has none.
///
/// A key or certificate written before these columns existed (format 3), or by a format 3
/// library that still held the database open, holds the empty blob in all three (the
/// columns' default), ``notIndexed``: its attributes are sealed, so only its class key can
/// fill them. A search by one of them reads those rows too and compares after opening
/// them; the search that meets one then indexes the rows whose class key is at hand (see
/// ``KeychainStore/indexRowsOfOlderFormats()``).
struct KeyLookupColumns: Hashable {
    let applicationTag: Data?
    let applicationLabel: Data?
    let publicKeyHash: Data?

    /// The codes of the attributes, in the order of their columns.
    static let attributeCodes = ["atag", "klbl", "pkhh"]

    /// The classes that have the columns: certificates and keys. An array of two: every row
    /// read asks, and hashing a code for a set cost more than comparing it twice.
    static let classCodes = [ItemClass.certificate.storageCode, ItemClass.key.storageCode]

    /// What the columns of a row not indexed yet hold: no hash is empty.
    static let notIndexed = Data()

    /// Written into the associated data before the columns.
    static let associatedDataMarker = Array("key lookup".utf8)

    /// The columns, in the order of ``attributeCodes``.
    var columns: [Data?] { [applicationTag, applicationLabel, publicKeyHash] }

    /// The columns of a record; nil for a class that has none.
    init?(record: ItemRecord, hasher: IndexHasher) throws(KeychainError) {
        guard Self.classCodes.contains(record.itemClass.storageCode) else { return nil }
        var hashes: [Data?] = []
        for code in Self.attributeCodes {
            // Only attributes of the record's class: a key has no `pkhh`, a certificate no tag.
            guard let attribute = record.itemClass.schema.attributes[code],
                  let bytes = try record.canonicalBytes(of: attribute) else {
                hashes.append(nil)
                continue
            }
            hashes.append(hasher.hash(code, bytes))
        }
        self.init(applicationTag: hashes[0], applicationLabel: hashes[1], publicKeyHash: hashes[2])
    }

    init(applicationTag: Data?, applicationLabel: Data?, publicKeyHash: Data?) {
        self.applicationTag = applicationTag
        self.applicationLabel = applicationLabel
        self.publicKeyHash = publicKeyHash
    }

    /// The columns as read from a row of class `classCode`: nil for a class without them, or
    /// for a row not indexed yet.
    init?(classCode: Int, applicationTag: Data?, applicationLabel: Data?, publicKeyHash: Data?) {
        guard Self.classCodes.contains(classCode),
              ![applicationTag, applicationLabel, publicKeyHash].contains(Self.notIndexed) else { return nil }
        self.init(applicationTag: applicationTag, applicationLabel: applicationLabel, publicKeyHash: publicKeyHash)
    }
}
