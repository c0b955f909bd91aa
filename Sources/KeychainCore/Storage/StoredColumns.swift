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
        let schema = record.itemClass.schema
        func column(_ attribute: Attribute) throws(KeychainError) -> Data? {
            guard schema.attributes[attribute.code] != nil,
                  let bytes = try record.canonicalBytes(of: attribute)
            else { return nil }
            return hasher.hash(attribute.code, bytes)
        }
        classCode = record.itemClass.storageCode
        sync = record.isSynchronizable ? 1 : 0
        protection = record.accessibility.rawValue
        identity = try hasher.identity(of: record)
        accessGroup = hasher.accessGroupHash(record.accessGroup)
        account = try column(ItemSchema.account)
        service = try column(ItemSchema.service)
        server = try column(ItemSchema.server)
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
        var aad = associatedDataBytes(nonce: nonce)
        aad[Self.partOffset] = part.rawValue
        return Data(aad)
    }

    /// The associated data of both parts, built once: they differ only in the part byte.
    func associatedData(nonce: Data) -> (attributes: Data, secret: Data) {
        var aad = associatedDataBytes(nonce: nonce)
        aad[Self.partOffset] = Part.attributes.rawValue
        let attributes = Data(aad)
        aad[Self.partOffset] = Part.secret.rawValue
        return (attributes, Data(aad))
    }

    /// The associated data with the part byte left to set.
    private func associatedDataBytes(nonce: Data) -> [UInt8] {
        var aad = Self.associatedDataPrefix
        aad.reserveCapacity(aad.count + 1 + 8 + 8 * 8 + 6 * 32 + protection.utf8.count)
        aad.append(0)
        aad.append(contentsOf: nonce)
        func append(_ value: Int) {
            withUnsafeBytes(of: Int64(value).bigEndian) { aad.append(contentsOf: $0) }
        }
        func append(_ field: Data?) {
            // A length of -1 marks an absent column, so absent and empty differ.
            append(field?.count ?? -1)
            if let field { aad.append(contentsOf: field) }
        }
        append(classCode)
        append(sync)
        append(Data(protection.utf8))
        append(identity)
        append(accessGroup)
        append(account)
        append(service)
        append(server)
        return aad
    }

    private static let partOffset = associatedDataPrefix.count
    private static let associatedDataPrefix = Array("swift-keychain item v\(KeychainSchema.formatVersion)".utf8)
}
