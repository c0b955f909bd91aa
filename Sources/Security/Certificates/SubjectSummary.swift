import SwiftASN1

/// The summary Apple's `SecCertificateCopySubjectSummary` builds from a subject's attributes
/// (its `obtainSummaryFromX501Name`): every value of the most specific kind present, the
/// later first, and after common names the subject's descriptions in parentheses.
struct SubjectSummary {
    /// The kinds of attribute, from least to most specific.
    private enum Kind: Int, Comparable {
        case none, other, organizationName, organizationalUnitName, commonName
        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The summary of the attributes; nil when none of them is a string.
    let text: String?
    /// Whether it names the subject by common name; if not, Apple prefers an email address or
    /// a DNS name of the certificate to it.
    let isCommonName: Bool

    /// Walks the subject's attributes; nil if the name is malformed, in which case Apple
    /// gives no summary at all.
    init?(subject: ASN1Node) {
        guard let attributes = NameAttribute.all(in: subject) else { return nil }
        var kind = Kind.none
        var summary: String?
        var description: String?
        for attribute in attributes {
            // Values that are not strings take no part: there is no text to show for them.
            guard let value = attribute.text else { continue }
            let attributeKind: Kind
            if attribute.isOfType(NameAttribute.commonName) {
                attributeKind = .commonName
            } else if attribute.isOfType(NameAttribute.organizationalUnitName) {
                attributeKind = .organizationalUnitName
            } else if attribute.isOfType(NameAttribute.organizationName) {
                attributeKind = .organizationName
            } else {
                if attribute.isOfType(NameAttribute.description) {
                    description = description.map { Self.list(value, $0) } ?? value
                }
                attributeKind = .other
            }
            if attributeKind > kind {
                kind = attributeKind
                summary = value
            } else if attributeKind == kind, let earlier = summary {
                summary = Self.list(value, earlier)
            }
        }
        if kind == .commonName, let description, let names = summary {
            summary = "\(names) (\(description))"
        }
        text = summary
        isCommonName = kind == .commonName
    }

    /// Two values joined as Apple's English list format joins them.
    private static func list(_ first: String, _ second: String) -> String { "\(first), \(second)" }
}
