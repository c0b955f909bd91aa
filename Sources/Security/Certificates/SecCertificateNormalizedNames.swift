import Foundation

/// Copies the issuer of a certificate as a normalized DER-encoded X.501 name, the form the
/// keychain compares issuers in (`kSecAttrIssuer` of a stored certificate on Apple platforms).
///
/// Normalized as on Apple platforms: within PrintableString values, ASCII letters are
/// uppercased and runs of spaces and tabs become one space, with none at either end; other
/// string types (UTF8String among them) are left as they are.
///
/// - Parameter certificate: The certificate.
/// - Returns: The normalized issuer, a DER SEQUENCE; nil if the issuer cannot be read.
@discardableResult
public func SecCertificateCopyNormalizedIssuerSequence(_ certificate: SecCertificate) -> CFData? {
    NormalizedName.encoding(of: certificate.encodedParts.issuer).map { Data($0) as CFData }
}

/// Copies the subject of a certificate as a normalized DER-encoded X.501 name, normalized as
/// ``SecCertificateCopyNormalizedIssuerSequence(_:)`` describes.
///
/// - Parameter certificate: The certificate.
/// - Returns: The normalized subject, a DER SEQUENCE; nil if the subject cannot be read.
@discardableResult
public func SecCertificateCopyNormalizedSubjectSequence(_ certificate: SecCertificate) -> CFData? {
    NormalizedName.encoding(of: certificate.encodedParts.subject).map { Data($0) as CFData }
}
