import Foundation

/// A stored item's attributes, as its owner set them plus what the keychain maintains:
/// `agrp`, `pdmn`, `sync` (0 or 1), `cdat` and `mdat` are always present.
public struct ItemRecord: Sendable, Hashable {
    public let itemClass: ItemClass
    /// Every attribute that is set, by four-character code.
    public internal(set) var attributes: [String: AttributeValue]

    public var accessGroup: String {
        if case .string(let group) = attributes[ItemSchema.accessGroup.code] { return group }
        return ""
    }

    public var accessibility: Accessibility {
        if case .string(let raw) = attributes[ItemSchema.accessible.code],
           let value = Accessibility(rawValue: raw) {
            return value
        }
        return Accessibility.defaultValue(for: itemClass)
    }

    public var isSynchronizable: Bool {
        (try? ItemSchema.synchronizable.integer(of: attributes["sync"] ?? .number(0))) == 1
    }

    public var modificationDate: Date? {
        if case .date(let date) = attributes[ItemSchema.modificationDate.code] { return date }
        return nil
    }

    /// The canonical bytes of an attribute, with the primary-key default when it is unset
    /// (an absent account equals `acct = ""`), or nil for an unset attribute outside the key.
    func canonicalBytes(of attribute: Attribute) throws(KeychainError) -> Data? {
        if let value = attributes[attribute.code] { return try attribute.canonicalBytes(of: value) }
        if itemClass.schema.primaryKey.contains(attribute) { return attribute.defaultCanonicalBytes }
        return nil
    }
}

/// A persistent reference: the four class bytes and the item's 16-byte UUID (rule 38).
public struct PersistentReference: Sendable, Hashable {
    public let itemClass: ItemClass
    public let id: UUID

    public init(itemClass: ItemClass, id: UUID) {
        self.itemClass = itemClass
        self.id = id
    }

    /// Parses the 20-byte form; nil for anything else.
    public init?(data: Data) {
        guard data.count == 20,
              let itemClass = ItemClass(rawValue: String(decoding: data.prefix(4), as: UTF8.self))
        else { return nil }
        self.itemClass = itemClass
        self.id = UUID(uuidBytes: data.dropFirst(4))
    }

    /// The 20-byte form handed to callers.
    public var data: Data { itemClass.referenceTag + id.bytes }
}

/// An item a query found, with the parts the caller asked for.
public struct FoundItem: Sendable {
    /// The attributes, when attributes or a reference were asked for.
    public let record: ItemRecord?
    /// The secret, when it was asked for and the item has one.
    public let data: Data?
    public let persistentReference: PersistentReference
}

extension UUID {
    var bytes: Data { withUnsafeBytes(of: uuid) { Data($0) } }

    init(uuidBytes: Data) {
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { target in
            uuidBytes.withUnsafeBytes { source in
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source.prefix(16)))
            }
        }
        self.init(uuid: raw)
    }
}
