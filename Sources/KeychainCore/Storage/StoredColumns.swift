import Foundation
import GRDB
import GRDBSQLite

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
    /// The hashed columns that find keys and certificates (``KeyLookupColumns``); nil for
    /// a password, and for a key or certificate not indexed yet.
    let keyLookup: KeyLookupColumns?

    /// The attributes with a hashed column of their own, besides the access group, in the
    /// order of their columns. Six, which ``MatchPlan`` keeps inline.
    static let hashedAttributeCodes = [ItemSchema.account.code, ItemSchema.service.code, ItemSchema.server.code]
        + KeyLookupColumns.attributeCodes

    init(record: ItemRecord, hasher: IndexHasher) throws(KeychainError) {
        try self.init(record: record, hasher: hasher, accessibility: record.accessibility)
    }

    /// The columns of `record`, whose ``ItemRecord/accessibility`` the caller has at hand:
    /// an add reads it for the class key and the password check too, and each reading
    /// looks it up in the attributes again.
    init(record: ItemRecord, hasher: IndexHasher, accessibility: Accessibility) throws(KeychainError) {
        // The canonical bytes of the identity, computed once: the hashed columns are
        // primary-key fields of the classes that have them.
        let fields = try record.identityFieldBytes()
        func column(_ attribute: Attribute) -> Data? {
            fields.first { $0.attribute.code == attribute.code }.map { hasher.hash(attribute.code, $0.bytes) }
        }
        classCode = record.itemClass.storageCode
        sync = record.isSynchronizable ? 1 : 0
        protection = accessibility.rawValue
        identity = hasher.identity(of: record.itemClass, fields: fields)
        // The access group is an identity field of every class: its bytes are at hand.
        accessGroup = column(ItemSchema.accessGroup) ?? hasher.accessGroupHash(record.accessGroup)
        account = column(ItemSchema.account)
        service = column(ItemSchema.service)
        server = column(ItemSchema.server)
        keyLookup = try KeyLookupColumns(record: record, hasher: hasher)
    }

    init(classCode: Int, sync: Int, protection: String, identity: Data, accessGroup: Data,
         account: Data?, service: Data?, server: Data?, keyLookup: KeyLookupColumns?) {
        self.classCode = classCode
        self.sync = sync
        self.protection = protection
        self.identity = identity
        self.accessGroup = accessGroup
        self.account = account
        self.service = service
        self.server = server
        self.keyLookup = keyLookup
    }

    /// The same columns with `keyLookup` filled: what indexing a row not indexed yet writes.
    func with(keyLookup: KeyLookupColumns?) -> StoredColumns {
        StoredColumns(classCode: classCode, sync: sync, protection: protection, identity: identity,
                      accessGroup: accessGroup, account: account, service: service, server: server,
                      keyLookup: keyLookup)
    }

    /// The class is a literal and the hashed columns are named so that SQLite finds the item
    /// through the class's UNIQUE index, which starts with them; bound to ``sameIdentityValues``.
    var sameIdentityCondition: String {
        "class = \(classCode) AND svce IS ? AND srvr IS ? AND acct IS ? AND identity = ?"
    }

    var sameIdentityValues: [SQLValue] {
        [.blob(service), .blob(server), .blob(account), .blob(identity)]
    }

    /// The id, nonce and protection class of the live item with these columns' identity, or nil.
    func itemWithSameIdentity(in db: Database) throws -> (id: Int64, nonce: Data, protection: String)? {
        var found: (id: Int64, nonce: Data, protection: String)?
        try DirectStatement(db, sql: "SELECT id, nonce, protection FROM item WHERE \(sameIdentityCondition)",
                            values: sameIdentityValues)
            .forEachRow { statement in
                let protection = sqlite3_column_text(statement, 2).map { String(cString: $0) } ?? ""
                found = (sqlite3_column_int64(statement, 0), Data(sqliteStatement: statement, index: 1), protection)
                return false
            }
        return found
    }

    /// Whether the row holds every column its class has: false for a key or certificate
    /// written before the lookup columns existed.
    var isIndexed: Bool {
        keyLookup != nil || !KeyLookupColumns.classCodes.contains(classCode)
    }

    enum Part: UInt8 {
        case attributes = 0x61
        case secret = 0x73
        /// The secret of an item with an access control, its flags first (``ItemSealing``).
        case guardedSecret = 0x67
    }

    /// How a sealed part's plaintext is laid out, which its associated data names.
    enum Layout {
        /// As written by format 2: the plaintext as it is.
        case unpadded
        /// Padded to a size class (``SizeClassPadding``): what every write seals now.
        case padded

        /// Each layout has a prefix of its own, so a part is opened only as what it is.
        var prefix: [UInt8] {
            switch self {
            case .unpadded: Self.unpaddedPrefix
            case .padded: Self.paddedPrefix
            }
        }

        private static let unpaddedPrefix = Array("swift-keychain item v2".utf8)
        private static let paddedPrefix = Array("swift-keychain item v3".utf8)
    }

    /// The associated data that binds a sealed blob to this row and to its role in it.
    func associatedData(nonce: Data, part: Part, layout: Layout) -> Data {
        ByteWriter.data(count: associatedDataCount(nonce: nonce, layout: layout)) { writer in
            writeAssociatedData(&writer, nonce: nonce, part: part, layout: layout)
        }
    }

    /// The associated data of both parts: they differ only in the part byte.
    func associatedData(nonce: Data, layout: Layout) -> (attributes: Data, secret: Data) {
        (associatedData(nonce: nonce, part: .attributes, layout: layout),
         associatedData(nonce: nonce, part: .secret, layout: layout))
    }

    /// Hands `use` the associated data of either part, written once into a temporary buffer
    /// whose part byte the function it is given sets: what sealing a row's two parts needs,
    /// with no allocation. Each buffer it returns holds only until the next call.
    func withAssociatedData<R>(nonce: Data, layout: Layout,
                               _ use: ((Part) -> UnsafeRawBufferPointer) throws(KeychainError) -> R) throws(KeychainError) -> R {
        let count = associatedDataCount(nonce: nonce, layout: layout)
        let partIndex = layout.prefix.count
        let result = withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { buffer -> Result<R, KeychainError> in
            ByteWriter.fill(buffer) { writer in
                writeAssociatedData(&writer, nonce: nonce, part: .attributes, layout: layout)
            }
            do throws(KeychainError) {
                return .success(try use { part in
                    buffer[partIndex] = part.rawValue
                    return UnsafeRawBufferPointer(buffer)
                })
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The length of the associated data (``writeAssociatedData(_:nonce:part:layout:)``).
    private func associatedDataCount(nonce: Data, layout: Layout) -> Int {
        var count = layout.prefix.count + 1 + nonce.count + 8 * 3 + protection.utf8.count
        count += 8 * 5 + identity.count + accessGroup.count + (account?.count ?? 0) + (service?.count ?? 0)
            + (server?.count ?? 0)
        if let keyLookup {
            count += KeyLookupColumns.associatedDataMarker.count + 8 * 3 + (keyLookup.applicationTag?.count ?? 0)
                + (keyLookup.applicationLabel?.count ?? 0) + (keyLookup.publicKeyHash?.count ?? 0)
        }
        return count
    }

    /// The prefix, the part byte, the nonce, then each column with its length; then, for a
    /// row that has them, a marker and the lookup columns. A row without them (a password,
    /// or a key or certificate not indexed yet) keeps the associated data it was sealed with
    /// before they existed, and a row with them can never open as one without.
    private func writeAssociatedData(_ writer: inout ByteWriter, nonce: Data, part: Part, layout: Layout) {
        writer.write(layout.prefix)
        writer.write(byte: part.rawValue)
        writer.write(nonce)
        writer.write(bigEndian: Int64(classCode))
        writer.write(bigEndian: Int64(sync))
        writer.write(bigEndian: Int64(protection.utf8.count))
        writer.write(protection)
        Self.write(identity, to: &writer)
        Self.write(accessGroup, to: &writer)
        Self.write(account, to: &writer)
        Self.write(service, to: &writer)
        Self.write(server, to: &writer)
        if let keyLookup {
            writer.write(KeyLookupColumns.associatedDataMarker)
            Self.write(keyLookup.applicationTag, to: &writer)
            Self.write(keyLookup.applicationLabel, to: &writer)
            Self.write(keyLookup.publicKeyHash, to: &writer)
        }
    }

    /// A column with its length; a length of -1 marks an absent column, so absent and empty
    /// differ.
    private static func write(_ field: Data?, to writer: inout ByteWriter) {
        writer.write(bigEndian: Int64(field?.count ?? -1))
        if let field { writer.write(field) }
    }
}
