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

/// Turns swift-asn1's errors into ``PKCS12Failure/malformed(_:)`` naming what was being read.
enum PKCS12DER {
    static func decoding<Value>(_ what: String, _ body: () throws -> Value) throws(PKCS12Failure) -> Value {
        do {
            return try body()
        } catch let failure as PKCS12Failure {
            throw failure
        } catch {
            throw .malformed("\(what) is not valid DER of the expected structure")
        }
    }

    /// The members of a SET OF, in any order: some writers of PKCS#12 leave bag attributes
    /// unsorted, which strict DER (and swift-asn1's `DER.set`) refuses; the MAC, not the
    /// order, protects them.
    static func unorderedSet(_ node: ASN1Node) throws -> [ASN1Node] {
        guard node.identifier == .set, case .constructed(let members) = node.content else {
            throw ASN1Error.unexpectedFieldType(node.identifier)
        }
        return Array(members)
    }

    /// The DER of a value kept as ASN1Any.
    static func bytes(of value: ASN1Any, _ what: String) throws(PKCS12Failure) -> [UInt8] {
        var serializer = DER.Serializer()
        do {
            try serializer.serialize(value)
        } catch {
            throw .malformed("\(what) cannot be re-encoded")
        }
        return serializer.serializedBytes
    }

    static func serializing(_ what: String, _ body: (inout DER.Serializer) throws -> Void) throws(PKCS12Failure) -> [UInt8] {
        var serializer = DER.Serializer()
        do {
            try body(&serializer)
        } catch {
            throw .cannotWrite("\(what) cannot be encoded")
        }
        return serializer.serializedBytes
    }
}
