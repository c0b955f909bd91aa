import ArgumentParser
import Foundation
import Security

/// `delete-certificate`: one certificate, named by its common name or its SHA-1 fingerprint,
/// deleted from a keychain.
struct DeleteCertificate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-certificate",
        abstract: "Delete a certificate by common name or SHA-1 fingerprint.",
        discussion: """
            -c deletes the certificate whose common name is the text; when several have it, nothing \
            is deleted and the command fails: name it with -Z (its SHA-1 fingerprint, as \
            find-certificate -Z prints it). No match exits 44 (errSecItemNotFound).
            """)

    @Option(name: .customShort("c"), help: ArgumentHelp("The common name of the certificate.", valueName: "name"))
    var name: String?

    @Option(name: .customShort("Z"), help: ArgumentHelp("The SHA-1 fingerprint of the certificate (hex).", valueName: "hash"))
    var sha1: String?

    @OptionGroup var keychain: KeychainArgument

    func validate() throws {
        guard (name == nil) != (sha1 == nil) else {
            throw ValidationError("Name the certificate with either -c or -Z.")
        }
    }

    func run() throws {
        try keychain.location.runSeeingEveryGroup { store in
            let matches = try store.certificates().filter { certificate in
                if let sha1 { return CertificateDigest.sha1(certificate.certificate) == sha1.uppercased() }
                return certificate.name == name
            }
            guard let match = matches.first else {
                throw ToolFailure.status(errSecItemNotFound, during: "SecItemCopyMatching")
            }
            guard matches.count == 1 else {
                throw ToolFailure.other("delete-certificate: \(matches.count) certificates are named \(name ?? ""); "
                                        + "name one with -Z <SHA-1 fingerprint> (find-certificate -a -Z -c prints them)")
            }
            try store.delete(match.item)
        }
    }
}
