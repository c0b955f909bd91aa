import ArgumentParser
import Foundation
import Security

/// `find-identity`: the identities (a certificate with its private key) of a keychain, with
/// whether each is valid under a policy, as `security find-identity` lists them.
struct FindIdentity: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-identity",
        abstract: "List identities (certificates with their private keys) and whether they are valid.",
        discussion: """
            Each identity is listed as its certificate's SHA-1 fingerprint and name; an invalid one \
            is followed by the reason. -v lists valid identities only. Validity is a trust \
            evaluation under the policy (-p basic by default, ssl-server, ssl-client) against the \
            system's roots; -s gives the host name for the SSL policies.
            """)

    @Option(name: .customShort("p"), help: ArgumentHelp("The policy: basic (default), ssl-server, ssl-client.", valueName: "policy"))
    var policy: CertificatePolicy = .basic

    @Option(name: .customShort("s"), help: ArgumentHelp("A policy-specific string: the host name for the SSL policies.", valueName: "string"))
    var policyString: String?

    @Flag(name: .customShort("v"), help: "Show valid identities only.")
    var validOnly = false

    @OptionGroup var keychain: KeychainArgument

    func run() throws {
        let (certificates, others) = try keychain.location.runSeeingEveryGroup { store in
            (try store.identityCertificates(), try store.certificates().map(\.certificate))
        }
        var all: [(certificate: SecCertificate, failure: CFError?)] = []
        for certificate in certificates {
            // The keychain's certificates may hold the intermediates, as macOS searches them;
            // only the system's roots are trusted.
            let failure = try TrustVerdict.evaluate([certificate] + others, policy: policy.policy(hostName: policyString),
                                                    anchors: nil, date: nil)
            all.append((certificate, failure))
        }
        var text = "Policy: \(policy.title)\n"
        if !validOnly {
            text += "  Matching identities\n" + Self.list(all, showingFailures: true)
            text += "     \(all.count) identities found\n\n"
        }
        let valid = all.filter { $0.failure == nil }
        text += "  Valid identities only\n" + Self.list(valid, showingFailures: false)
        text += "     \(valid.count) valid identities found\n"
        ConsoleOutput.write(text)
    }

    private static func list(_ identities: [(certificate: SecCertificate, failure: CFError?)], showingFailures: Bool) -> String {
        identities.enumerated().map { index, identity in
            var line = "  \(index + 1)) \(CertificateDigest.sha1(identity.certificate)) \"\(name(of: identity.certificate))\""
            if showingFailures, let failure = identity.failure { line += " (\(TrustVerdict.name(of: failure)))" }
            return line + "\n"
        }.joined()
    }

    private static func name(of certificate: SecCertificate) -> String {
        (SecCertificateCopySubjectSummary(certificate) as String?) ?? ""
    }
}

extension ItemStore {
    /// The certificate of every identity in the keychain: certificates whose private key the
    /// keychain holds.
    func identityCertificates() throws -> [SecCertificate] {
        try identities().compactMap { identity in
            var certificate: SecCertificate?
            return SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess ? certificate : nil
        }
    }
}
