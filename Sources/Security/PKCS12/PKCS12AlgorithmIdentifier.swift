import SwiftASN1

/// AlgorithmIdentifier (RFC 5280 section 4.1.1.2): an algorithm and its optional parameters,
/// kept as DER for the scheme that reads them.
struct PKCS12AlgorithmIdentifier: DERImplicitlyTaggable, Hashable, Sendable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var algorithm: ASN1ObjectIdentifier
    var parameters: ASN1Any?

    init(algorithm: ASN1ObjectIdentifier, parameters: ASN1Any?) {
        self.algorithm = algorithm
        self.parameters = parameters
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let algorithm = try ASN1ObjectIdentifier(derEncoded: &nodes)
            let parameters = nodes.next().map(ASN1Any.init(derEncoded:))
            return PKCS12AlgorithmIdentifier(algorithm: algorithm, parameters: parameters)
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(algorithm)
            if let parameters { try coder.serialize(parameters) }
        }
    }

    /// The parameters read as `Parameters`; a missing or ill-formed value is a malformed file.
    func parameters<Parameters: DERParseable>(as type: Parameters.Type, _ what: String) throws(PKCS12Failure) -> Parameters {
        guard let parameters else { throw .malformed("\(what) has no parameters") }
        return try PKCS12DER.decoding(what) { try Parameters(asn1Any: parameters) }
    }
}
