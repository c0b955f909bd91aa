import ArgumentParser
import Foundation
import Security

/// `find-certificate`: certificates of a keychain by name or email address, printed as
/// `security` prints them (attributes, PEM, fingerprints).
struct FindCertificate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-certificate",
        abstract: "Find certificates by name or email address.",
        discussion: """
            Without -a, the first match only. -c matches certificates whose common name (or, \
            without one, label) contains the text; -e those with the email address. -p prints \
            each certificate in PEM instead of its attributes; -Z prints its SHA-256 and SHA-1 \
            fingerprints first; -m prints its email addresses. No match exits 44 (errSecItemNotFound).
            """)

    @Flag(name: .customShort("a"), help: "Find all matching certificates, not just the first.")
    var all = false

    @Option(name: .customShort("c"), help: ArgumentHelp("Match certificates whose name contains this text.", valueName: "name"))
    var name: String?

    @Option(name: .customShort("e"), help: ArgumentHelp("Match certificates with this email address.", valueName: "emailAddress"))
    var emailAddress: String?

    @Flag(name: .customShort("m"), help: "Show the email addresses in the certificate.")
    var showEmailAddresses = false

    @Flag(name: .customShort("p"), help: "Print the certificate in PEM.")
    var pem = false

    @Flag(name: .customShort("Z"), help: "Print the SHA-256 and SHA-1 fingerprints of the certificate.")
    var fingerprints = false

    @OptionGroup var keychain: KeychainArgument

    func run() throws {
        let (found, path) = try keychain.location.runSeeingEveryGroup { store in
            (try store.certificates().filter(matches), store.keychainPath)
        }
        guard !found.isEmpty else { throw ToolFailure.status(errSecItemNotFound, during: "SecItemCopyMatching") }
        for certificate in all ? found : [found[0]] {
            var text = ""
            if fingerprints {
                text += "SHA-256 hash: \(CertificateDigest.sha256(certificate.certificate))\n"
                text += "SHA-1 hash: \(CertificateDigest.sha1(certificate.certificate))\n"
            }
            if showEmailAddresses {
                text += "email addresses: " + certificate.emailAddresses.joined(separator: ", ") + "\n"
            }
            text += pem ? CertificateFile.pem(certificate.certificate)
                        : AttributeBlock.text(for: certificate.item, keychainPath: path, withData: false)
            ConsoleOutput.write(text)
        }
    }

    private func matches(_ certificate: CertificateItem) -> Bool {
        if let name, !certificate.name.contains(name) { return false }
        if let emailAddress, !certificate.emailAddresses.contains(where: { $0.caseInsensitiveCompare(emailAddress) == .orderedSame }) {
            return false
        }
        return true
    }
}
