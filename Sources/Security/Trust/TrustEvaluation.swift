import Foundation
import SwiftASN1
import X509

/// What a trust is evaluated from: a snapshot of its settings.
struct TrustInputs: Sendable {
    /// The leaf first, then any certificates that may help build the chain, in any order.
    var certificates: [SecCertificate]
    var policies: [SecPolicy]
    /// The custom anchors; nil for the system's alone.
    var anchors: [SecCertificate]?
    /// Whether custom anchors replace the system's rather than join them.
    var anchorsOnly: Bool
    /// The date certificates must be valid at; nil for the time of evaluation.
    var verifyDate: Date?
}

/// The outcome of one evaluation.
struct TrustVerdict: Sendable {
    let result: SecTrustResultType
    /// The chain from the leaf to its anchor; when no chain is trusted, the chain that came
    /// closest, from the leaf as far as its issuers could be found.
    let chain: [SecCertificate]
    /// The checks failed, by certificate of `chain`; empty when trusted.
    let failures: [TrustFailure]
    /// The date certificates were checked at.
    let date: Date

    var isTrusted: Bool { result == .unspecified || result == .proceed }
}

enum TrustEvaluation {
    /// The most intermediate certificates an evaluation considers (those after the leaf, in
    /// the order given). Chains are a few certificates long; a hostile list of many
    /// certificates with one subject, each signed by the next, makes path building try
    /// combinations without end (200 of them took two minutes), and evaluations take turns
    /// on one thread.
    static let maximumIntermediates = 16

    /// Evaluates `inputs` with swift-certificates' verifier, on the evaluation thread (see
    /// ``TrustEvaluationThread``): safe to call from any thread, and it blocks until done.
    static func verdict(for inputs: TrustInputs) -> TrustVerdict {
        TrustEvaluationThread.shared.result { await evaluate(inputs) }
    }

    static func evaluate(_ inputs: TrustInputs) async -> TrustVerdict {
        let date = inputs.verifyDate ?? Date()
        // Every certificate the chain may be built from, to give back the objects the caller
        // passed rather than copies.
        let custom = inputs.anchors ?? []
        let usesSystemRoots = inputs.anchors == nil || !inputs.anchorsOnly
        let system = usesSystemRoots ? SystemTrustRoots.certificates : []
        var known: [Certificate: SecCertificate] = [:]
        for certificate in inputs.certificates + custom { known[certificate.parsed] = known[certificate.parsed] ?? certificate }
        func object(for certificate: Certificate) -> SecCertificate? {
            if let passed = known[certificate] { return passed }
            var serializer = DER.Serializer()
            guard (try? serializer.serialize(certificate)) != nil else { return nil }
            return SecCertificate.make(derBytes: serializer.serializedBytes)
        }

        guard let leaf = inputs.certificates.first else {
            return TrustVerdict(result: .invalid, chain: [], failures: [], date: date)
        }
        let roots = custom.map(\.parsed) + system
        // `return` turns the policy builder off, so that the verifier's policy keeps its type
        // and its record of rejected chains can be read.
        let rootStore = (usesSystemRoots ? SystemTrustRoots.store : CertificateStore()).appending(contentsOf: custom.map(\.parsed))
        var verifier = Verifier(rootCertificates: rootStore) {
            return TrustPolicy(policies: inputs.policies.map(\.kind), verifyDate: date)
        }
        let intermediates = inputs.certificates.dropFirst().prefix(Self.maximumIntermediates).map(\.parsed)
        let outcome = await verifier.validate(leaf: leaf.parsed, intermediates: CertificateStore(intermediates))

        if case .validCertificate(let chain) = outcome {
            return TrustVerdict(result: .unspecified, chain: chain.compactMap(object(for:)), failures: [], date: date)
        }
        // A chain reached an anchor: report the first one tried, the verifier's preferred.
        if let (chain, failures) = verifier.policy.rejectedChains.first {
            return TrustVerdict(result: .recoverableTrustFailure, chain: chain.compactMap(object(for:)), failures: failures, date: date)
        }
        // None did: the chain as far as issuers can be found, and why it stops there.
        let candidates = intermediates + roots
        let chain = closestChain(from: leaf.parsed, candidates: candidates)
        let last = chain.count - 1
        // An anchor reached this way was refused by path validation (a critical extension no
        // policy handles, for one).
        let stop: TrustCheck =
            roots.contains(chain[last]) ? .basicCertificateProcessing
            : isSelfSigned(chain[last]) ? .anchorTrusted : .missingIntermediate
        let failures = TrustPolicy.temporalFailures(of: chain, at: date) + [TrustFailure(check: stop, index: last)]
        return TrustVerdict(result: .recoverableTrustFailure, chain: chain.compactMap(object(for:)), failures: failures, date: date)
    }

    /// The longest path from `leaf` through issuers found among `candidates` that signed the
    /// certificate below them, stopping at a self-signed certificate.
    private static func closestChain(from leaf: Certificate, candidates: [Certificate]) -> [Certificate] {
        var chain = [leaf]
        while let tip = chain.last, !isSelfSigned(tip), chain.count <= candidates.count {
            guard let issuer = candidates.first(where: { candidate in
                candidate.subject == tip.issuer && !chain.contains(candidate)
                    && candidate.publicKey.isValidSignature(tip.signature, for: tip)
            }) else { break }
            chain.append(issuer)
        }
        return chain
    }

    private static func isSelfSigned(_ certificate: Certificate) -> Bool {
        certificate.subject == certificate.issuer
            && certificate.publicKey.isValidSignature(certificate.signature, for: certificate)
    }
}
