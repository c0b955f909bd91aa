import Foundation

/// A stored item's attributes, as its owner set them plus what the keychain maintains:
/// `agrp`, `pdmn`, `sync` (0 or 1), `cdat` and `mdat` are always present.
package struct ItemRecord: Sendable, Hashable {
    package let itemClass: ItemClass
    /// Every attribute that is set, by four-character code.
    package internal(set) var attributes: [String: AttributeValue]

    package init(itemClass: ItemClass, attributes: [String: AttributeValue]) {
        self.itemClass = itemClass
        self.attributes = attributes
    }

    package var accessGroup: String {
        if case .string(let group) = attributes[ItemSchema.accessGroup.code] { return group }
        return ""
    }

    package var accessibility: Accessibility {
        if case .string(let raw) = attributes[ItemSchema.accessible.code],
           let value = Accessibility(rawValue: raw) {
            return value
        }
        return Accessibility.defaultValue(for: itemClass)
    }

    package var isSynchronizable: Bool {
        (try? ItemSchema.synchronizable.integer(of: attributes["sync"] ?? .number(0))) == 1
    }

    /// The flags of the item's access control, or nil when it was stored without one.
    package var accessControlFlags: Int64? {
        if case .number(let flags)? = attributes[ItemSchema.accessControl.code] { return flags }
        return nil
    }

    package var modificationDate: Date? {
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

    /// The canonical bytes of each of the class's ``ItemSchema/identityFields``, in order,
    /// defaults included: what an identity is made of, in the store and in sync.
    func identityFieldBytes() throws(KeychainError) -> [(attribute: Attribute, bytes: Data)] {
        let identityFields = itemClass.schema.identityFields
        var fields: [(attribute: Attribute, bytes: Data)] = []
        fields.reserveCapacity(identityFields.count)
        for attribute in identityFields {
            fields.append((attribute, try canonicalBytes(of: attribute) ?? attribute.defaultCanonicalBytes))
        }
        return fields
    }
}

/// A persistent reference: the four class bytes and the item's 16-byte UUID, 20 bytes, as
/// Apple's are.
package struct PersistentReference: Sendable, Hashable {
    package let itemClass: ItemClass
    package let id: UUID

    package init(itemClass: ItemClass, id: UUID) {
        self.itemClass = itemClass
        self.id = id
    }

    /// Parses the 20-byte form; nil for anything else.
    package init?(data: Data) {
        guard data.count == 20,
              let itemClass = ItemClass(rawValue: String(decoding: data.prefix(4), as: UTF8.self))
        else { return nil }
        self.itemClass = itemClass
        self.id = UUID(uuidBytes: data.dropFirst(4))
    }

    /// The 20-byte form handed to callers.
    package var data: Data { itemClass.referenceTag + id.bytes }
}

/// An item a query found, with the parts the caller asked for.
package struct FoundItem: Sendable {
    /// The attributes, when attributes or a reference were asked for.
    package let record: ItemRecord?
    /// The secret, when it was asked for and the item has one.
    package let data: Data?
    package let persistentReference: PersistentReference
    /// The flags of the item's access control (`accc`), when its secret was read and it has
    /// one: what decides whether the secret may be handed out.
    package let accessControlFlags: Int64?

    package init(record: ItemRecord?, data: Data?, persistentReference: PersistentReference,
                 accessControlFlags: Int64? = nil) {
        self.record = record
        self.data = data
        self.persistentReference = persistentReference
        self.accessControlFlags = accessControlFlags
    }

    /// This item with another secret: the one an application password opened.
    package func replacingData(_ data: Data) -> FoundItem {
        FoundItem(record: record, data: data, persistentReference: persistentReference,
                  accessControlFlags: accessControlFlags)
    }
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
