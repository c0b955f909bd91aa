import Foundation
@_implementationOnly import KeychainCore

/// Identities as keychain items: not stored on their own, but formed by joining each
/// certificate with the private key whose application label equals the certificate's
/// public-key hash (Apple's SecItemServer: `cert.pkhh == keys.klbl`).
///
/// An identity's query names attributes of both halves: those a certificate has select
/// certificates, the key-only ones (kSecAttrApplicationTag, kSecAttrKeyType, ...) select
/// keys. As Apple's s3dl_query_row makes a result, it holds the key's attributes with the
/// certificate's laid over them, and the key's data; its persistent reference is the
/// certificate's with the identity class.
enum IdentityItems {
    /// One identity found: both halves as stored, and the object they make.
    struct Found {
        let certificate: FoundItem
        let key: FoundItem
        let identity: SecIdentity

        /// The identity as one found item: the key's attributes with the certificate's over
        /// them, the key's data, the certificate's persistent reference under the identity
        /// class.
        var item: FoundItem {
            let attributes = (key.record?.attributes ?? [:])
                .merging(certificate.record?.attributes ?? [:]) { _, certificate in certificate }
            return FoundItem(
                record: ItemRecord(itemClass: .identity, attributes: attributes),
                data: key.data,
                persistentReference: PersistentReference(itemClass: .identity, id: certificate.persistentReference.id))
        }
    }

    /// The identities the query matches, in the certificates' insertion order, up to its
    /// limit; errSecItemNotFound when none.
    static func find(_ query: ParsedQuery, in store: KeychainStore,
                     by caller: CallerIdentity) throws(KeychainError) -> [Found] {
        var (certificateAttributes, keyAttributes) = split(query.attributes)
        // The key half is the private key whose application label is the certificate's
        // public-key hash: a query's own label or key class narrows the pairs, never
        // replaced by the pairing's (which found any identity for a label no key has).
        if let label = keyAttributes["klbl"] {
            let bytes = try ItemClass.key.schema.attribute("klbl").canonicalBytes(of: label)
            if let hash = certificateAttributes["pkhh"],
               try ItemClass.certificate.schema.attribute("pkhh").canonicalBytes(of: hash) != bytes {
                throw .itemNotFound
            }
            certificateAttributes["pkhh"] = .data(bytes)
        }
        if let keyClass = keyAttributes["kcls"],
           try ItemClass.key.schema.attribute("kcls").canonicalBytes(of: keyClass)
            != ItemClass.key.schema.attribute("kcls").canonicalBytes(of: .number(1)) {
            throw .itemNotFound
        }
        let certificateReference = query.persistentReference.map {
            PersistentReference(itemClass: $0.itemClass == .identity ? .certificate : $0.itemClass, id: $0.id)
        }
        let certificates = try findOrNone(ItemQuery(
            itemClass: .certificate, attributes: certificateAttributes, synchronizable: query.synchronizable,
            persistentReference: certificateReference, limit: .all, returning: [.attributes, .data]), in: store, by: caller)
        var found: [Found] = []
        for certificateItem in certificates {
            if case .count(let limit) = query.limit, found.count >= limit { break }
            guard let certificate = ItemObject.make(certificateItem) as? SecCertificate else { continue }
            var attributes = keyAttributes
            attributes["kcls"] = .number(1)
            attributes["klbl"] = .data(certificate.publicKeyHash)
            let keys = try findOrNone(ItemQuery(
                itemClass: .key, attributes: attributes, synchronizable: .any, limit: .one,
                returning: [.attributes, .data]), in: store, by: caller)
            guard let keyItem = keys.first, let key = ItemObject.make(keyItem) as? SecKey else { continue }
            found.append(Found(certificate: certificateItem, key: keyItem,
                               identity: SecIdentity(certificate: certificate, privateKey: key)))
        }
        guard !found.isEmpty else { throw .itemNotFound }
        return found
    }

    /// Adds both halves of an identity, as Apple's explode_identity does: a half that is
    /// already there is kept, and only both being there is errSecDuplicateItem. A key that
    /// cannot be added takes the certificate just added with it: never half an identity.
    /// Returns the identity as found, for the result.
    static func add(_ identity: SecIdentity, with query: ParsedQuery, in store: KeychainStore,
                    by caller: CallerIdentity) throws(KeychainError) -> Found {
        // Each half takes the attributes its class has: the label, group and accessibility
        // go to both, as Apple passes one dictionary to both adds.
        var certificateQuery = query
        certificateQuery.itemClass = .certificate
        certificateQuery.attributes = query.attributes.filter { ItemClass.certificate.schema.attributes[$0.key] != nil }
        try certificateQuery.merge(.certificate(identity.certificate), for: .add)
        var keyQuery = query
        keyQuery.itemClass = .key
        keyQuery.attributes = query.attributes.filter { ItemClass.key.schema.attributes[$0.key] != nil }
        try keyQuery.merge(.key(identity.privateKey), for: .add)
        // The private key's external representation is ours to clear once stored.
        defer { keyQuery.valueData?.zeroize() }

        var addedCertificate: PersistentReference?
        do {
            addedCertificate = try store.add(certificateQuery.newItem, by: caller).persistentReference
        } catch .duplicateItem {}
        do {
            _ = try store.add(keyQuery.newItem, by: caller)
        } catch .duplicateItem where addedCertificate != nil {
        } catch {
            if let addedCertificate {
                try? store.delete(ItemQuery(itemClass: .certificate, persistentReference: addedCertificate), by: caller)
            }
            throw error
        }
        var lookup = query
        lookup.itemClass = .identity
        lookup.attributes = identity.certificate.identifyingItemAttributes
            .merging(identity.privateKey.identifyingItemAttributes) { certificate, _ in certificate }
        lookup.limit = .one
        guard let found = try find(lookup, in: store, by: caller).first else { throw .itemNotFound }
        return found
    }

    /// Deletes the identities the query matches, in one transaction: their certificates,
    /// and each key that no other certificate still pairs with (as Apple's explode_identity
    /// keeps a key in use).
    static func delete(_ queries: [ParsedQuery], in store: KeychainStore, by caller: CallerIdentity) throws(KeychainError) {
        let found = try ItemList.joined(queries.map { var all = $0; all.limit = .all; return all }, limit: .all) {
            query throws(KeychainError) in try find(query, in: store, by: caller)
        } reference: { $0.item.persistentReference }
        let certificates = Set(found.map(\.certificate.persistentReference))
        var deletions = certificates.map { ItemQuery(itemClass: .certificate, persistentReference: $0) }
        var keys = Set<PersistentReference>()
        for identity in found where !keys.contains(identity.key.persistentReference) {
            let pairedCertificates = try findOrNone(ItemQuery(
                itemClass: .certificate, attributes: ["pkhh": .data(identity.identity.certificate.publicKeyHash)],
                synchronizable: .any, limit: .all), in: store, by: caller)
            guard pairedCertificates.allSatisfy({ certificates.contains($0.persistentReference) }) else { continue }
            keys.insert(identity.key.persistentReference)
            deletions.append(ItemQuery(itemClass: .key, persistentReference: identity.key.persistentReference))
        }
        try store.delete(every: deletions, by: caller)
    }

    /// The query's attributes as the certificate half's (every attribute a certificate has)
    /// and the key half's (the attributes only keys have).
    static func split(_ attributes: [String: AttributeValue])
        -> (certificate: [String: AttributeValue], key: [String: AttributeValue]) {
        let certificateSchema = ItemClass.certificate.schema
        var certificate: [String: AttributeValue] = [:]
        var key: [String: AttributeValue] = [:]
        for (code, value) in attributes {
            if certificateSchema.attributes[code] != nil { certificate[code] = value } else { key[code] = value }
        }
        return (certificate, key)
    }

    private static func findOrNone(_ query: ItemQuery, in store: KeychainStore,
                                   by caller: CallerIdentity) throws(KeychainError) -> [FoundItem] {
        do { return try store.find(query, by: caller) } catch .itemNotFound { return [] }
    }
}
