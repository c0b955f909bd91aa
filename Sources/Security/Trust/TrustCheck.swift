@_implementationOnly import KeychainCore

/// A check of Apple's trust evaluation that a certificate of the chain failed, with what Apple
/// reports for it (Security's SecPolicyChecks.list and SecFrameworkStrings.h): the status of
/// the error, the words of the summary and of the detailed description, and how serious it is
/// beside the others.
enum TrustCheck: Sendable, Equatable {
    /// The chain ends in a self-signed certificate that is not an anchor (`AnchorTrusted`).
    case anchorTrusted
    /// The chain ends in a certificate whose issuer is nowhere to be found (`MissingIntermediate`).
    case missingIntermediate
    /// A certificate that is not a certificate authority issued the one below it
    /// (`BasicConstraintsCA`).
    case basicConstraintsCA
    /// A certificate leads to an anchor, but the path breaks another rule of RFC 5280: a path
    /// length or name constraint, a version (`BasicCertificateProcessing`).
    case basicCertificateProcessing
    /// The leaf's extended key usage does not allow the policy's usage (`ExtendedKeyUsage`).
    case extendedKeyUsage
    /// The leaf has no subject alternative name matching the host name (`SSLHostname`).
    case sslHostname
    /// The verify date is outside the certificate's validity (`TemporalValidity`): expired and
    /// not yet valid alike, as Apple reports both.
    case temporalValidity

    /// Apple's kinds of failure, most serious first (SecTrustErrorSubType): the most serious
    /// failure of the chain names the error.
    private enum Severity: Int, Comparable {
        case compliance = 5, trust = 7, usage = 8, name = 9, expired = 10
        static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private var severity: Severity {
        switch self {
        case .anchorTrusted, .missingIntermediate: .trust
        case .basicConstraintsCA, .basicCertificateProcessing: .compliance
        case .extendedKeyUsage: .usage
        case .sslHostname: .name
        case .temporalValidity: .expired
        }
    }

    /// True when this failure outranks `other` in naming the error.
    func isMoreSerious(than other: TrustCheck) -> Bool { severity < other.severity }

    /// The error's code.
    var status: KeychainStatus {
        switch self {
        case .anchorTrusted: .notTrusted
        case .missingIntermediate: .createChainFailed
        case .basicConstraintsCA: .noBasicConstraintsCA
        case .basicCertificateProcessing: .invalidCertificateRef
        case .extendedKeyUsage: .invalidExtendedKeyUsage
        case .sslHostname: .hostNameMismatch
        case .temporalValidity: .certificateExpired
        }
    }

    /// The one-line summary naming the certificate, as Apple words it.
    func summary(naming certificate: String) -> String {
        switch severity {
        case .compliance: "\u{201C}\(certificate)\u{201D} certificate is not standards compliant"
        case .trust: "\u{201C}\(certificate)\u{201D} certificate is not trusted"
        case .usage: "\u{201C}\(certificate)\u{201D} certificate is not permitted for this usage"
        case .name: "\u{201C}\(certificate)\u{201D} certificate name does not match input"
        case .expired: "\u{201C}\(certificate)\u{201D} certificate is expired"
        }
    }

    /// The words of the detailed description for this check.
    var detail: String {
        switch self {
        case .anchorTrusted: "Root is not trusted"
        case .missingIntermediate: "Unable to build chain to root (possible missing intermediate)"
        case .basicConstraintsCA: "Non-CA certificate used as a CA"
        case .basicCertificateProcessing: "Certificate does not meet RFC 5280 path requirements"
        case .extendedKeyUsage: "Extended key usage does not match certificate usage"
        case .sslHostname: "SSL hostname does not match name(s) in certificate"
        case .temporalValidity: "Certificate is not temporally valid"
        }
    }
}

/// A check that the certificate at `index` of the chain failed.
struct TrustFailure: Sendable, Equatable {
    let check: TrustCheck
    let index: Int
}
