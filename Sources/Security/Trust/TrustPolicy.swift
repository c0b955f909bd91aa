import Foundation
import SwiftASN1
@_spi(DisableValidityCheck) import X509

/// The policies of a trust as swift-certificates' verifier applies them to each candidate chain.
///
/// A chain passes when it meets RFC 5280 and fails none of Apple's checks at the verify date.
/// The verifier only says whether some chain passed; so that a failure can be reported as Apple
/// reports it, the policy keeps each chain that reached an anchor but failed, with the checks
/// it failed (the verifier keeps the policy it mutates).
struct TrustPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier]

    /// Path validation without the validity dates, which `failures(of:)` checks itself so
    /// that it can say which certificate is out of date.
    private let pathValidation = RFC5280Policy.withValidityCheckDisabled()
    private let policies: [SecPolicy.Kind]
    private let verifyDate: Date

    /// The chains that reached an anchor but failed, in the order the verifier tried them.
    private(set) var rejectedChains: [(chain: [Certificate], failures: [TrustFailure])] = []

    init(policies: [SecPolicy.Kind], verifyDate: Date) {
        self.policies = policies
        self.verifyDate = verifyDate
        self.verifyingCriticalExtensions = pathValidation.verifyingCriticalExtensions + [
            .X509ExtensionID.subjectAlternativeName, .X509ExtensionID.extendedKeyUsage,
        ]
    }

    mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        let certificates = Array(chain)
        var failures: [TrustFailure] = []
        if case .failsToMeetPolicy = pathValidation.chainMeetsPolicyRequirements(chain: chain) {
            failures.append(TrustPolicy.pathFailure(of: certificates))
        }
        failures += TrustPolicy.temporalFailures(of: certificates, at: verifyDate)
        for policy in policies {
            guard case .ssl(let server, let hostname) = policy else { continue }
            if !TrustPolicy.allowsTLS(certificates[0], server: server) {
                failures.append(TrustFailure(check: .extendedKeyUsage, index: 0))
            }
            if let hostname, !TrustPolicy.matches(chain: chain, hostname: hostname) {
                failures.append(TrustFailure(check: .sslHostname, index: 0))
            }
        }
        guard failures.isEmpty else {
            rejectedChains.append((certificates, failures))
            return .failsToMeetPolicy(reason: "the chain fails Apple's trust checks")
        }
        return .meetsPolicy
    }

    /// Which certificate breaks RFC 5280, as precisely as Apple says it: an issuer that is no
    /// certificate authority, else the leaf's path as a whole.
    private static func pathFailure(of chain: [Certificate]) -> TrustFailure {
        for index in chain.indices.dropFirst() {
            let constraints = try? chain[index].extensions.basicConstraints
            guard case .isCertificateAuthority = constraints else {
                return TrustFailure(check: .basicConstraintsCA, index: index)
            }
        }
        return TrustFailure(check: .basicCertificateProcessing, index: 0)
    }

    /// The certificates of `chain` that are expired or not yet valid at `date`.
    static func temporalFailures(of chain: [Certificate], at date: Date) -> [TrustFailure] {
        chain.indices.compactMap { index in
            let certificate = chain[index]
            let valid = certificate.notValidBefore <= date && date <= certificate.notValidAfter
            return valid ? nil : TrustFailure(check: .temporalValidity, index: index)
        }
    }

    /// Whether the leaf's extended key usage, if it has one, allows a TLS server or client, as
    /// Apple's SSL policy requires: any usage, or the role's, or for a server one of the two
    /// Server Gated Cryptography usages of old.
    private static func allowsTLS(_ leaf: Certificate, server: Bool) -> Bool {
        let usages: ExtendedKeyUsage?
        do {
            usages = try leaf.extensions.extendedKeyUsage
        } catch {
            return false
        }
        guard let usages else { return true }
        let allowed: [ExtendedKeyUsage.Usage] =
            server
            ? [.any, .serverAuth, .init(oid: [1, 3, 6, 1, 4, 1, 311, 10, 3, 3]), .init(oid: [2, 16, 840, 1, 113730, 4, 1])]
            : [.any, .clientAuth]
        return usages.contains(where: allowed.contains)
    }

    /// Whether the leaf has a subject alternative name matching `hostname`, a DNS name or an IP
    /// address, by swift-certificates' RFC 6125 matching. Unlike that matching, a leaf without
    /// subject alternative names never matches: Apple stopped reading host names from the
    /// common name in 2019.
    private static func matches(chain: UnverifiedCertificateChain, hostname: String) -> Bool {
        guard let names = try? chain.leaf.extensions.subjectAlternativeNames, !names.isEmpty else { return false }
        var identity = ServerIdentityPolicy(serverHostname: hostname, serverIP: hostname)
        if case .meetsPolicy = identity.chainMeetsPolicyRequirements(chain: chain) { return true }
        return false
    }
}
