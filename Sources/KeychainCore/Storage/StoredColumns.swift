import Foundation

/// The columns of an item row that are not sealed: what selects its key and what equality
/// search reads. Every column goes into the associated data of both sealed blobs, so a
/// blob moved to another row, or a column changed or swapped, fails to open.
struct StoredColumns: Hashable {
    let classCode: Int
    let sync: Int
    let protection: String
    let identity: Data
    let accessGroup: Data
    let account: Data?
    let service: Data?
    let server: Data?

    /// The attributes with a hashed column of their own, besides the access group, in the
    /// order of their columns.
    static let hashedAttributeCodes = [ItemSchema.account.code, ItemSchema.service.code, ItemSchema.server.code]

    init(record: ItemRecord, hasher: IndexHasher) throws(KeychainError) {
        // The canonical bytes of the identity, computed once: the hashed columns are
        // primary-key fields of the classes that have them.
        var fields: [(attribute: Attribute, bytes: Data)] = []
        for attribute in record.itemClass.schema.identityFields {
            fields.append((attribute, try record.canonicalBytes(of: attribute) ?? attribute.defaultCanonicalBytes))
        }
        func column(_ attribute: Attribute) -> Data? {
            fields.first { $0.attribute.code == attribute.code }.map { hasher.hash(attribute.code, $0.bytes) }
        }
        classCode = record.itemClass.storageCode
        sync = record.isSynchronizable ? 1 : 0
        protection = record.accessibility.rawValue
        identity = hasher.identity(of: record.itemClass, fields: fields)
        accessGroup = hasher.accessGroupHash(record.accessGroup)
        account = column(ItemSchema.account)
        service = column(ItemSchema.service)
        server = column(ItemSchema.server)
    }

    init(classCode: Int, sync: Int, protection: String, identity: Data, accessGroup: Data,
         account: Data?, service: Data?, server: Data?) {
        self.classCode = classCode
        self.sync = sync
        self.protection = protection
        self.identity = identity
        self.accessGroup = accessGroup
        self.account = account
        self.service = service
        self.server = server
    }

    enum Part: UInt8 {
        case attributes = 0x61
        case secret = 0x73
    }

    /// The associated data that binds a sealed blob to this row and to its role in it.
    func associatedData(nonce: Data, part: Part) -> Data {
        associatedDataBytes(nonce: nonce, part: part)
    }

    /// The associated data of both parts: they differ only in the part byte.
    func associatedData(nonce: Data) -> (attributes: Data, secret: Data) {
        var aad = associatedDataBytes(nonce: nonce, part: .attributes)
        let attributes = aad
        aad[Self.partOffset] = Part.secret.rawValue
        return (attributes, aad)
    }

    /// The prefix, the part byte, the nonce, then each column with its length.
    private func associatedDataBytes(nonce: Data, part: Part) -> Data {
        let fields = [identity, accessGroup, account, service, server]
        let count = Self.associatedDataPrefix.count + 1 + nonce.count + 8 * (3 + fields.count)
            + protection.utf8.count + fields.reduce(0) { $0 + ($1?.count ?? 0) }
        return ByteWriter.data(count: count) { writer in
            writer.write(Self.associatedDataPrefix)
            writer.write(byte: part.rawValue)
            writer.write(nonce)
            writer.write(bigEndian: Int64(classCode))
            writer.write(bigEndian: Int64(sync))
            writer.write(bigEndian: Int64(protection.utf8.count))
            writer.write(protection)
            for field in fields {
                // A length of -1 marks an absent column, so absent and empty differ.
                writer.write(bigEndian: Int64(field?.count ?? -1))
                if let field { writer.write(field) }
            }
        }
    }

    private static let partOffset = associatedDataPrefix.count
    private static let associatedDataPrefix = Array("swift-keychain item v\(KeychainSchema.formatVersion)".utf8)
}
