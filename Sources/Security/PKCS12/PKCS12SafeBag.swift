import SwiftASN1

/// SafeBag (RFC 7292 section 4.2): a typed value (`[0] EXPLICIT`) with its attributes.
struct PKCS12SafeBag: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var bagID: ASN1ObjectIdentifier
    var value: ASN1Any
    var attributes: PKCS12BagAttributes

    init(bagID: ASN1ObjectIdentifier, value: ASN1Any, attributes: PKCS12BagAttributes) {
        self.bagID = bagID
        self.value = value
        self.attributes = attributes
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let bagID = try ASN1ObjectIdentifier(derEncoded: &nodes)
            let value = try DER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { ASN1Any(derEncoded: $0) }
            var attributes = PKCS12BagAttributes()
            if let set = nodes.next() {
                for node in try PKCS12DER.unorderedSet(set) {
                    try attributes.read(PKCS12Attribute(derEncoded: node))
                }
            }
            return PKCS12SafeBag(bagID: bagID, value: value, attributes: attributes)
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(bagID)
            try coder.serialize(value, explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific)
            let attributes = try attributes.encoded()
            if !attributes.isEmpty { try coder.serializeSetOf(attributes) }
        }
    }
}

/// The attributes of a bag that identities are matched by: `friendlyName` (PKCS#9, a
/// BMPString) and `localKeyID` (bytes that a key bag and its certificate's bag share).
/// Other attributes are skipped.
package struct PKCS12BagAttributes: Sendable, Equatable {
    /// The bag's label, as `kSecImportItemLabel` reports it.
    package var friendlyName: String?
    /// The identifier a key and its certificate share, as `kSecImportItemKeyID` reports it.
    package var localKeyID: [UInt8]?

    package init(friendlyName: String? = nil, localKeyID: [UInt8]? = nil) {
        self.friendlyName = friendlyName
        self.localKeyID = localKeyID
    }

    fileprivate mutating func read(_ attribute: PKCS12Attribute) throws {
        switch attribute.type {
        case PKCS12ObjectIdentifiers.friendlyName:
            guard attribute.values.count == 1, let value = attribute.values.first else {
                throw PKCS12Failure.malformed("a friendlyName attribute does not have exactly one value")
            }
            let string = try ASN1BMPString(asn1Any: value)
            guard string.bytes.count % 2 == 0 else { throw PKCS12Failure.malformed("a friendlyName is not whole UTF-16 units") }
            let units = stride(from: string.bytes.startIndex, to: string.bytes.endIndex, by: 2).map {
                UInt16(string.bytes[$0]) << 8 | UInt16(string.bytes[$0 + 1])
            }
            friendlyName = String(decoding: units, as: UTF16.self)
        case PKCS12ObjectIdentifiers.localKeyID:
            guard attribute.values.count == 1, let value = attribute.values.first else {
                throw PKCS12Failure.malformed("a localKeyID attribute does not have exactly one value")
            }
            localKeyID = Array(try ASN1OctetString(asn1Any: value).bytes)
        default:
            break
        }
    }

    fileprivate func encoded() throws -> [PKCS12Attribute] {
        var attributes: [PKCS12Attribute] = []
        if let friendlyName {
            let units = friendlyName.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            attributes.append(PKCS12Attribute(type: PKCS12ObjectIdentifiers.friendlyName,
                                              values: [try ASN1Any(erasing: ASN1BMPString(contentBytes: units[...]))]))
        }
        if let localKeyID {
            attributes.append(PKCS12Attribute(type: PKCS12ObjectIdentifiers.localKeyID,
                                              values: [try ASN1Any(erasing: ASN1OctetString(contentBytes: localKeyID[...]))]))
        }
        return attributes
    }
}

/// PKCS12Attribute (RFC 7292 section 4.2): a type and a SET OF values.
struct PKCS12Attribute: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var type: ASN1ObjectIdentifier
    var values: [ASN1Any]

    init(type: ASN1ObjectIdentifier, values: [ASN1Any]) {
        self.type = type
        self.values = values
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let type = try ASN1ObjectIdentifier(derEncoded: &nodes)
            guard let set = nodes.next() else { throw PKCS12Failure.malformed("an attribute has no values") }
            return PKCS12Attribute(type: type, values: try PKCS12DER.unorderedSet(set).map(ASN1Any.init(derEncoded:)))
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(type)
            try coder.serializeSetOf(values)
        }
    }
}

/// CertBag (RFC 7292 section 4.2.3): a certificate type and the certificate, `[0] EXPLICIT`.
struct PKCS12CertBag: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var certificateType: ASN1ObjectIdentifier
    var value: ASN1Any

    init(certificateType: ASN1ObjectIdentifier, value: ASN1Any) {
        self.certificateType = certificateType
        self.value = value
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let type = try ASN1ObjectIdentifier(derEncoded: &nodes)
            let value = try DER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { ASN1Any(derEncoded: $0) }
            return PKCS12CertBag(certificateType: type, value: value)
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(certificateType)
            try coder.serialize(value, explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific)
        }
    }
}

/// EncryptedPrivateKeyInfo (RFC 5958 section 3): the value of a shrouded key bag.
struct PKCS12EncryptedPrivateKeyInfo: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var encryptionAlgorithm: PKCS12AlgorithmIdentifier
    var encryptedData: [UInt8]

    init(encryptionAlgorithm: PKCS12AlgorithmIdentifier, encryptedData: [UInt8]) {
        self.encryptionAlgorithm = encryptionAlgorithm
        self.encryptedData = encryptedData
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let algorithm = try PKCS12AlgorithmIdentifier(derEncoded: &nodes)
            let data = try ASN1OctetString(derEncoded: &nodes)
            return PKCS12EncryptedPrivateKeyInfo(encryptionAlgorithm: algorithm, encryptedData: Array(data.bytes))
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(encryptionAlgorithm)
            try coder.serialize(ASN1OctetString(contentBytes: encryptedData[...]))
        }
    }
}
