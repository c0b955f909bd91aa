import Foundation

/// A synchronizable item as sync carries it between machines: its class, every attribute it
/// stores (`agrp`, `pdmn`, `sync` = 1, `cdat` and `mdat` included) and its secret; or, as a
/// tombstone's content, its class and the attributes of its identity only, with no secret.
package struct SyncedItem: Sendable, Equatable {
    package var itemClass: ItemClass
    /// Every stored attribute, by code.
    package var attributes: [String: AttributeValue]
    /// The secret; nil for a tombstone's content.
    package var secret: Data?

    package init(itemClass: ItemClass, attributes: [String: AttributeValue], secret: Data?) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.secret = secret
    }

    /// The class and the canonical bytes of the primary key, access group and sync flag
    /// included: the same on every machine for the same item, and the bytes whose keyed hash
    /// the store's UNIQUE index holds. A value of the wrong type counts as the field's
    /// default here; applying such an item fails (errSecParam).
    package var identityBytes: Data {
        let record = self.record
        let fields = itemClass.schema.identityFields.map { attribute in
            (attribute: attribute, bytes: (try? record.canonicalBytes(of: attribute)).flatMap { $0 }
                ?? attribute.defaultCanonicalBytes)
        }
        return ByteWriter.data(count: IndexHasher.identityMessageCount(of: itemClass, fields: fields)) { writer in
            IndexHasher.writeIdentityMessage(of: itemClass, fields: fields, to: &writer)
        }
    }

    /// `mdat` in milliseconds since 1970; 0 without one, or for a date before 1970.
    package var modificationTime: UInt64 {
        guard let date = record.modificationDate else { return 0 }
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        // Checked, since a conversion of NaN or of a value out of range traps.
        guard milliseconds.isFinite, milliseconds > 0 else { return 0 }
        return milliseconds < 0x1p64 ? UInt64(milliseconds) : .max
    }

    var record: ItemRecord { ItemRecord(itemClass: itemClass, attributes: attributes) }

    /// Whether it is a tombstone's content: no secret.
    var isTombstone: Bool { secret == nil }

    // MARK: - Serialized form

    /// The form's version byte.
    static let formVersion: UInt8 = 1
    private static let withSecret: UInt8 = 0x69
    private static let tombstone: UInt8 = 0x74

    /// The byte form that sync seals, padded to a size class (``SizeClassPadding``) so that
    /// its length tells the server only its class: a version byte, a kind byte (item or
    /// tombstone), the class's code, then for an item the secret after its 8-byte
    /// big-endian length, then the attributes in the keychain's record form
    /// (``RecordCodec``).
    ///
    /// - Parameter includingSecret: false gives a tombstone's content: the class and the
    ///   attributes of the item's identity, no secret and nothing else.
    ///
    /// Every attribute of a stored item fits the record form; an item that does not (a code
    /// of over 255 bytes, a value of over 4 GiB, which no keychain can store) gives an empty
    /// form, which ``init(serialized:)`` refuses, rather than a partial one.
    package func serialized(includingSecret: Bool) -> Data {
        var attributes = attributes
        if !includingSecret {
            let identityCodes = Set(itemClass.schema.identityFields.map(\.code))
            attributes = attributes.filter { identityCodes.contains($0.key) }
        }
        guard let form = try? RecordCodec.Form(attributes) else { return Data() }
        let secret = includingSecret ? (secret ?? Data()) : nil
        let count = 3 + (secret.map { 8 + $0.count } ?? 0) + form.count
        return (try? SizeClassPadding.withPadded(count: count, { writer in
            writer.write(byte: Self.formVersion)
            writer.write(byte: secret == nil ? Self.tombstone : Self.withSecret)
            writer.write(byte: UInt8(itemClass.storageCode))
            if let secret {
                writer.write(bigEndian: Int64(secret.count))
                writer.write(secret)
            }
            form.write(&writer)
        }) { padded throws(KeychainError) in Data(padded) }) ?? Data()
    }

    /// Reads what ``serialized(includingSecret:)`` wrote. Anything else (a wrong padding or
    /// length, an unknown version, kind or class, a damaged record form, an attribute the
    /// class does not have or of the wrong type, no access group, a sync flag other than 1,
    /// an item that is ThisDeviceOnly or lacks its dates) is errSecDecode.
    package init(serialized: Data) throws(KeychainError) {
        let form = try SizeClassPadding.unpad(serialized)
        // Only the padding the writer makes: the smallest size class that holds the form.
        guard SizeClassPadding.paddedCount(form.count) == serialized.count else { throw .decode }
        var reader = ByteReader(bytes: [UInt8](form))
        guard try reader.byte() == Self.formVersion else { throw .decode }
        let kind = try reader.byte()
        guard kind == Self.withSecret || kind == Self.tombstone else { throw .decode }
        let code = Int(try reader.byte())
        guard let itemClass = ItemClass.allCases.first(where: { $0.storageCode == code }), itemClass != .identity
        else { throw .decode }
        var secret: Data?
        if kind == Self.withSecret {
            let length = try reader.take(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard length <= UInt64(form.count) else { throw .decode }
            secret = Data(try reader.take(Int(length)))
        }
        let attributes = try RecordCodec.decode(Data(try reader.take(reader.bytes.count - reader.offset)))
        self.init(itemClass: itemClass, attributes: attributes, secret: secret)
        do {
            try validate()
        } catch {
            throw .decode
        }
    }

    /// Checks that the item is one sync may carry, as ``init(serialized:)`` describes; the
    /// reason as errSecParam.
    func validate() throws(KeychainError) {
        let schema = itemClass.schema
        guard itemClass != .identity else { throw .param("identities are not stored items") }
        for (code, value) in attributes {
            let attribute = try schema.attribute(code)
            guard attribute.kind != .ignored else { throw .param("attribute '\(code)' is not stored") }
            _ = try attribute.canonicalBytes(of: value)
            if case .date(let date) = value, !date.timeIntervalSinceReferenceDate.isFinite {
                throw .param("attribute '\(code)' is not a valid date")
            }
        }
        guard case .string? = attributes[ItemSchema.accessGroup.code] else {
            throw .param("a synced item names its access group")
        }
        guard let sync = attributes[ItemSchema.synchronizable.code],
              try ItemSchema.synchronizable.integer(of: sync) == 1 else {
            throw .param("a synced item is synchronizable")
        }
        if isTombstone { return }
        guard case .string(let raw)? = attributes[ItemSchema.accessible.code], let accessibility = Accessibility(rawValue: raw),
              !accessibility.isThisDeviceOnly else {
            throw .param("a synced item has a protection that is not ThisDeviceOnly")
        }
        guard case .date? = attributes[ItemSchema.creationDate.code], case .date? = attributes[ItemSchema.modificationDate.code]
        else { throw .param("a synced item has its creation and modification dates") }
    }
}
