import SwiftASN1

/// PFX (RFC 7292 section 4): the outer structure of a PKCS#12 file.
struct PKCS12PFX: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }
    static let version = 3

    var authSafe: PKCS12ContentInfo
    var macData: PKCS12MacData?

    init(authSafe: PKCS12ContentInfo, macData: PKCS12MacData?) {
        self.authSafe = authSafe
        self.macData = macData
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let version = try Int(derEncoded: &nodes)
            guard version == Self.version else {
                throw PKCS12Failure.unsupported("PFX version \(version) (version 3 is read)")
            }
            let authSafe = try PKCS12ContentInfo(derEncoded: &nodes)
            let macData = try DER.optionalImplicitlyTagged(&nodes, tag: .sequence) as PKCS12MacData?
            return PKCS12PFX(authSafe: authSafe, macData: macData)
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(Self.version)
            try coder.serialize(authSafe)
            if let macData { try coder.serialize(macData) }
        }
    }
}

/// MacData (RFC 7292 section 4): the password-integrity MAC over the authenticated safe.
struct PKCS12MacData: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    /// The DigestInfo's algorithm.
    var digestAlgorithm: PKCS12AlgorithmIdentifier
    var digest: [UInt8]
    var salt: [UInt8]
    /// DEFAULT 1.
    var iterations: Int

    init(digestAlgorithm: PKCS12AlgorithmIdentifier, digest: [UInt8], salt: [UInt8], iterations: Int) {
        self.digestAlgorithm = digestAlgorithm
        self.digest = digest
        self.salt = salt
        self.iterations = iterations
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let (algorithm, digest) = try DER.sequence(of: nodes.next(), "DigestInfo") { nodes in
                (try PKCS12AlgorithmIdentifier(derEncoded: &nodes), try ASN1OctetString(derEncoded: &nodes))
            }
            let salt = try ASN1OctetString(derEncoded: &nodes)
            // Some writers encode the default of 1; read it whether present or not.
            var iterations = 1
            if let node = nodes.next() { iterations = try Int(derEncoded: node) }
            return PKCS12MacData(digestAlgorithm: algorithm, digest: Array(digest.bytes), salt: Array(salt.bytes),
                                 iterations: iterations)
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(digestAlgorithm)
                try coder.serialize(ASN1OctetString(contentBytes: digest[...]))
            }
            try coder.serialize(ASN1OctetString(contentBytes: salt[...]))
            if iterations != 1 { try coder.serialize(iterations) }
        }
    }
}

extension DER {
    /// A required SEQUENCE node read with `builder`; a missing node is an error.
    static func sequence<T>(of node: ASN1Node?, _ what: String,
                            _ builder: (inout ASN1NodeCollection.Iterator) throws -> T) throws -> T {
        guard let node else { throw PKCS12Failure.malformed("\(what) is missing") }
        return try DER.sequence(node, identifier: .sequence, builder)
    }
}
