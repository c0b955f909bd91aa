import SwiftASN1

/// The fields of a certificate that Apple's functions return as they are encoded: the serial
/// number's content bytes, and the issuer's and subject's names with their attributes in the
/// order and string types the certificate gives them.
struct CertificateEncodedParts: Sendable {
    /// The content of the serial number's INTEGER (without tag and length): a leading zero
    /// byte stays when the first content byte has its high bit set, as Apple returns it.
    let serialNumberContent: [UInt8]
    /// The issuer's Name, a SEQUENCE of relative distinguished names.
    let issuer: ASN1Node
    /// The subject's Name.
    let subject: ASN1Node

    /// Reads the fields from a certificate's DER encoding; nil if it does not have the shape
    /// of a certificate (swift-certificates checks the rest).
    init?(certificateDER: [UInt8]) {
        // Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signature }
        // TBSCertificate ::= SEQUENCE { [0] version OPTIONAL, serialNumber, signature, issuer,
        //                               validity, subject, ... }
        guard let root = try? DER.parse(certificateDER),
              case .constructed(let certificateFields) = root.content,
              let tbsCertificate = certificateFields.first(where: { _ in true }),
              case .constructed(let tbsFields) = tbsCertificate.content
        else { return nil }
        var fields = Array(tbsFields)
        if let version = fields.first, version.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            // As Apple: a version given explicitly is v2 or v3 (1 or 2), in one byte.
            guard case .constructed(let versionFields) = version.content,
                  let number = versionFields.first(where: { _ in true }), number.identifier == .integer,
                  case .primitive(let value) = number.content, value.count == 1, let only = value.first, only == 1 || only == 2
            else { return nil }
            fields.removeFirst()
        }
        // Apple refuses serial numbers longer than 37 bytes, though RFC 5280 allows only 20.
        guard fields.count >= 5,
              fields[0].identifier == .integer, case .primitive(let serial) = fields[0].content,
              (1 ... 37).contains(serial.count),
              fields[2].identifier == .sequence, fields[4].identifier == .sequence
        else { return nil }
        serialNumberContent = Array(serial)
        issuer = fields[2]
        subject = fields[4]
    }
}
