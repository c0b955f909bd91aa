import SwiftASN1

/// How the PKCS#12 code meets swift-asn1: BER read as DER, swift-asn1's errors turned into
/// ``PKCS12Failure/malformed(_:)`` naming what was being read, and encoding errors into
/// ``PKCS12Failure/cannotWrite(_:)``.
enum PKCS12DER {
    /// The node of `bytes`, which may be BER: Apple's and some other exports use indefinite
    /// lengths and constructed OCTET STRINGs. BER is re-encoded as DER (definite lengths,
    /// OCTET STRINGs whole), so that one DER reader serves both; the bytes a MAC covers are
    /// the OCTET STRING's content, which re-encoding leaves as it is.
    static func parse(_ bytes: [UInt8]) throws -> ASN1Node {
        if let node = try? DER.parse(bytes) { return node }
        var serializer = DER.Serializer()
        try reencode(BER.parse(bytes), into: &serializer)
        return try DER.parse(serializer.serializedBytes)
    }

    private static func reencode(_ node: ASN1Node, into serializer: inout DER.Serializer) throws {
        switch node.content {
        case .primitive(let content):
            serializer.appendPrimitiveNode(identifier: node.identifier) { $0.append(contentsOf: content) }
        case .constructed where node.identifier == .octetString:
            let whole = try ASN1OctetString(berEncoded: node)
            serializer.appendPrimitiveNode(identifier: .octetString) { $0.append(contentsOf: whole.bytes) }
        case .constructed(let children):
            try serializer.appendConstructedNode(identifier: node.identifier) { serializer in
                for child in children { try reencode(child, into: &serializer) }
            }
        }
    }

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
