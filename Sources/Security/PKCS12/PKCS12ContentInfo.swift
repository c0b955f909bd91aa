import SwiftASN1

/// ContentInfo (RFC 2315 section 7): a content type and its content, `[0] EXPLICIT`. In
/// PKCS#12 the authenticated safe and each of its parts are one.
struct PKCS12ContentInfo: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var contentType: ASN1ObjectIdentifier
    var content: ASN1Any?

    init(contentType: ASN1ObjectIdentifier, content: ASN1Any?) {
        self.contentType = contentType
        self.content = content
    }

    /// A `data` content holding `bytes` in an OCTET STRING.
    init(data bytes: [UInt8]) throws {
        self.init(contentType: PKCS12ObjectIdentifiers.data,
                  content: try ASN1Any(erasing: ASN1OctetString(contentBytes: bytes[...])))
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let contentType = try ASN1ObjectIdentifier(derEncoded: &nodes)
            let content = try DER.optionalExplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) {
                ASN1Any(derEncoded: $0)
            }
            return PKCS12ContentInfo(contentType: contentType, content: content)
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(contentType)
            if let content { try coder.serialize(content, explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific) }
        }
    }

    /// The bytes of a `data` content's OCTET STRING.
    func dataBytes(_ what: String) throws(PKCS12Failure) -> [UInt8] {
        guard let content else { throw .malformed("\(what) has no content") }
        return try PKCS12DER.decoding(what) { Array(try ASN1OctetString(asn1Any: content).bytes) }
    }
}

/// EncryptedData (RFC 2315 section 13) with its EncryptedContentInfo: content encrypted
/// under a password-based scheme.
struct PKCS12EncryptedData: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var contentType: ASN1ObjectIdentifier
    var encryptionAlgorithm: PKCS12AlgorithmIdentifier
    var encryptedContent: [UInt8]?

    init(contentType: ASN1ObjectIdentifier, encryptionAlgorithm: PKCS12AlgorithmIdentifier, encryptedContent: [UInt8]?) {
        self.contentType = contentType
        self.encryptionAlgorithm = encryptionAlgorithm
        self.encryptedContent = encryptedContent
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            _ = try Int(derEncoded: &nodes)
            return try DER.sequence(of: nodes.next(), "EncryptedContentInfo") { nodes in
                let contentType = try ASN1ObjectIdentifier(derEncoded: &nodes)
                let algorithm = try PKCS12AlgorithmIdentifier(derEncoded: &nodes)
                let content = try DER.optionalImplicitlyTagged(
                    &nodes, tag: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) as ASN1OctetString?
                return PKCS12EncryptedData(contentType: contentType, encryptionAlgorithm: algorithm,
                                           encryptedContent: content.map { Array($0.bytes) })
            }
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(0)
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(contentType)
                try coder.serialize(encryptionAlgorithm)
                if let encryptedContent {
                    try ASN1OctetString(contentBytes: encryptedContent[...])
                        .serialize(into: &coder, withIdentifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific))
                }
            }
        }
    }
}
