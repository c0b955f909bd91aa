import Foundation
import SwiftASN1
import X509

// The names a certificate gives its subject: common names, email addresses, and the summary
// Apple builds from them for display.

extension SecCertificate {
    /// The subject's common names, in the order of the encoding; nil when a common name is
    /// not a string.
    var commonNames: [String]? {
        strings(ofType: NameAttribute.commonName, in: encodedParts.subject)
    }

    /// The email addresses: the subject alternative names' rfc822Names, then the subject's
    /// emailAddress attributes, as Apple lists them. Empty when there are none or one of
    /// them cannot be read.
    var emailAddresses: [String] {
        guard let alternativeNames = alternativeNames,
              let subjectAddresses = strings(ofType: NameAttribute.emailAddress, in: encodedParts.subject)
        else { return [] }
        let alternativeAddresses = alternativeNames.compactMap { name -> String? in
            if case .rfc822Name(let address) = name { return address }
            return nil
        }
        return alternativeAddresses + subjectAddresses
    }

    /// The subject alternative names' DNS names; empty when there are none or they cannot be read.
    var dnsNames: [String] {
        guard let alternativeNames else { return [] }
        return alternativeNames.compactMap { name -> String? in
            if case .dnsName(let host) = name { return host }
            return nil
        }
    }

    /// The subject alternative names; empty without the extension, nil if it cannot be read.
    private var alternativeNames: [GeneralName]? {
        do {
            return try parsed.extensions.subjectAlternativeNames.map { Array($0) } ?? []
        } catch {
            return nil
        }
    }

    /// The text of every attribute of one type in a name; nil if the name is malformed or one
    /// of those values is not a string.
    private func strings(ofType type: [UInt8], in name: ASN1Node) -> [String]? {
        guard let attributes = NameAttribute.all(in: name) else { return nil }
        var strings: [String] = []
        for attribute in attributes where attribute.isOfType(type) {
            guard let text = attribute.text else { return nil }
            strings.append(text)
        }
        return strings
    }
}

/// A human-readable summary of a certificate's subject, as Apple platforms compute it.
///
/// The subject's common names, joined with ", " the last in the encoding first, followed by
/// its description attributes in parentheses if it has any. Without a common name, the first
/// email address (see ``SecCertificateCopyEmailAddresses(_:_:)``), else the first DNS name
/// among the subject alternative names; without those, the subject's organizational units,
/// else its organizations, else its other string attributes, joined the same way.
///
/// - Parameter certificate: The certificate.
/// - Returns: The summary, in whatever language the certificate uses; nil when the certificate
///   names its subject in none of these ways.
@discardableResult
public func SecCertificateCopySubjectSummary(_ certificate: SecCertificate) -> CFString? {
    guard let subjectSummary = SubjectSummary(subject: certificate.encodedParts.subject) else { return nil }
    var summary = subjectSummary.text
    if !subjectSummary.isCommonName, let alternative = certificate.emailAddresses.first ?? certificate.dnsNames.first {
        summary = alternative
    }
    return summary.map { $0 as NSString }
}

/// Copies the common name of a certificate's subject: the last one, when it has several.
///
/// - Parameters:
///   - certificate: The certificate.
///   - commonName: On success, the common name. Left as it was on failure.
/// - Returns: `errSecSuccess`, or `errSecInternal` when the subject has no common name or one
///   that is not a string (as on Apple platforms).
@discardableResult
public func SecCertificateCopyCommonName(
    _ certificate: SecCertificate, _ commonName: UnsafeMutablePointer<CFString?>
) -> OSStatus {
    guard let last = certificate.commonNames?.last else { return errSecInternal }
    commonName.pointee = last as NSString
    return errSecSuccess
}

/// Copies the email addresses of a certificate: those among its subject alternative names
/// (rfc822Name), then the emailAddress attributes of its subject.
///
/// - Parameters:
///   - certificate: The certificate.
///   - emailAddresses: On return, an array of strings; empty when the certificate has none.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecCertificateCopyEmailAddresses(
    _ certificate: SecCertificate, _ emailAddresses: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    emailAddresses.pointee = certificate.emailAddresses as NSArray
    return errSecSuccess
}
