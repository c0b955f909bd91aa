internal import Crypto
import Foundation
@_implementationOnly import KeychainCore
import X509

extension SecCertificate {
    /// The public-key hash Apple gives a certificate item (`kSecAttrPublicKeyHash`): the
    /// SHA-1 of the subject public key's bits, equal to the application label of the
    /// matching private key's item. That equality is what joins them into an identity.
    var publicKeyHash: Data {
        Data(Insecure.SHA1.hash(data: parsed.publicKey.subjectPublicKeyInfoBytes))
    }

    /// The attributes Apple derives for a certificate added by reference (SecCertificate.c,
    /// SecCertificateCopyAttributeDictionary, and SecItem.c's infer_cert_label): type
    /// (X.509 version + 1, so 3 for v3), encoding (3, DER), normalized subject and issuer,
    /// serial number content, subject key identifier when present, public-key hash and the
    /// subject summary as label.
    var itemAttributes: [String: AttributeValue] {
        var attributes = identifyingItemAttributes
        attributes["cenc"] = .number(3)
        if let subject = SecCertificateCopyNormalizedSubjectSequence(self) {
            attributes["subj"] = .data(subject as Data)
        }
        if let identifier = try? parsed.extensions.subjectKeyIdentifier {
            attributes["skid"] = .data(Data(identifier.keyIdentifier))
        }
        attributes["pkhh"] = .data(publicKeyHash)
        if let summary = SecCertificateCopySubjectSummary(self) {
            attributes["labl"] = .string(summary as String)
        }
        return attributes
    }

    /// Apple's `kSecAttrCertificateType`: CSSM_CERT_X_509v1, v2 or v3 (1, 2, 3).
    private var certificateType: Int64 {
        switch parsed.version {
        case .v1: 1
        case .v3: 3
        default: 2
        }
    }

    /// The primary key of the certificate's item: type, issuer and serial number. What a
    /// query naming the certificate by `kSecValueRef` matches on.
    var identifyingItemAttributes: [String: AttributeValue] {
        var attributes: [String: AttributeValue] = [
            "ctyp": .number(certificateType),
            "slnr": .data(Data(encodedParts.serialNumberContent)),
        ]
        if let issuer = SecCertificateCopyNormalizedIssuerSequence(self) {
            attributes["issr"] = .data(issuer as Data)
        }
        return attributes
    }
}
