import SwiftASN1

/// The summary Apple's `SecCertificateCopySubjectSummary` builds from a subject's attributes:
/// all values of the most specific kind present, joined, the later first; and a description
/// attribute in parentheses after common names or organizational units.
struct SubjectSummary {
    /// The kinds of attribute, from least to most specific.
    private enum Kind: Int, Comparable {
        case none, printable, organizationName, organizationalUnitName, commonName
        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The summary of the attributes; nil when none of them is a string.
    let text: String?

    /// Walks the subject's attributes; nil if the name is malformed, in which case Apple
    /// gives no summary at all.
    init?(subject: ASN1Node) {
        guard let attributes = NameAttribute.all(in: subject) else { return nil }
        var kind = Kind.none
        var summary: String?
        var description: String?
        for attribute in attributes {
            let attributeKind: Kind
            if attribute.isOfType(NameAttribute.commonName) {
                attributeKind = .commonName
            } else if attribute.isOfType(NameAttribute.organizationalUnitName) {
                attributeKind = .organizationalUnitName
            } else if attribute.isOfType(NameAttribute.organizationName) {
                attributeKind = .organizationName
            } else {
                attributeKind = .printable
            }
            // Values that are not strings take no part, as no text can be shown for them.
            guard let value = attribute.text else { continue }
            if attribute.isOfType(NameAttribute.description) {
                description = description.map { Self.list(value, $0) } ?? value
            }
            if attributeKind > kind {
                kind = attributeKind
                summary = value
            } else if attributeKind == kind, let earlier = summary {
                summary = Self.list(value, earlier)
            }
        }
        if let description, let named = summary, kind == .commonName || kind == .organizationalUnitName {
            summary = "\(named) (\(description))"
        }
        text = summary
    }

    /// Two values joined as Apple's English list format joins them.
    private static func list(_ first: String, _ second: String) -> String { "\(first), \(second)" }
}
