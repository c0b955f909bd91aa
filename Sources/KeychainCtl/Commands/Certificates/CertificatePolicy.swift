import ArgumentParser
import Foundation
import Security

/// The trust policies `verify-cert -p` and `find-identity -p` name, as `security` names them.
enum CertificatePolicy: String, ExpressibleByArgument, CaseIterable {
    case basic
    case sslServer = "ssl-server"
    case sslClient = "ssl-client"
    /// `verify-cert -p ssl`: a server's certificate.
    case ssl

    /// The policy, with the host name a server's certificate must name, if any.
    func policy(hostName: String?) -> SecPolicy {
        switch self {
        case .basic: SecPolicyCreateBasicX509()
        case .ssl, .sslServer: SecPolicyCreateSSL(true, hostName.map { $0 as CFString })
        case .sslClient: SecPolicyCreateSSL(false, nil)
        }
    }

    /// The heading `find-identity` prints for it.
    var title: String {
        switch self {
        case .basic: "X.509 Basic"
        case .ssl, .sslServer: "SSL (server)"
        case .sslClient: "SSL (client)"
        }
    }
}

/// A trust evaluation's verdict as the certificate commands print it.
enum TrustVerdict {
    /// Evaluates `certificates` (leaf first) under `policy`: nil when trusted, else the error.
    static func evaluate(_ certificates: [SecCertificate], policy: SecPolicy, anchors: [SecCertificate]?,
                         date: Date?) throws(ToolFailure) -> CFError? {
        var trust: SecTrust?
        try check(SecTrustCreateWithCertificates(certificates as CFArray, policy, &trust), "SecTrustCreateWithCertificates")
        guard let trust else { throw .status(errSecInternalComponent, during: "SecTrustCreateWithCertificates") }
        if let anchors {
            try check(SecTrustSetAnchorCertificates(trust, anchors as CFArray), "SecTrustSetAnchorCertificates")
        }
        if let date {
            try check(SecTrustSetVerifyDate(trust, date as CFDate), "SecTrustSetVerifyDate")
        }
        var error: CFError?
        return SecTrustEvaluateWithError(trust, &error) ? nil : (error ?? NSError(domain: NSOSStatusErrorDomain, code: Int(errSecNotTrusted)))
    }

    /// The name `security` gives a failed verdict (the CSSM names its scripts match), else the
    /// status's message.
    static func name(of error: CFError) -> String {
        switch OSStatus(truncatingIfNeeded: CFErrorGetCode(error)) {
        case errSecCertificateExpired: "CSSMERR_TP_CERT_EXPIRED"
        case errSecCertificateNotValidYet: "CSSMERR_TP_CERT_NOT_VALID_YET"
        case errSecNotTrusted, errSecCreateChainFailed: "CSSMERR_TP_NOT_TRUSTED"
        case errSecHostNameMismatch: "CSSMERR_APPLETP_HOSTNAME_MISMATCH"
        case let status: SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
        }
    }
}
