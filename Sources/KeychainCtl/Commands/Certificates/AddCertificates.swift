import ArgumentParser
import Foundation
import Security

/// `add-certificates`: the certificates of files added to a keychain, as `security` adds them.
struct AddCertificates: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-certificates",
        abstract: "Add certificates (DER or PEM files) to a keychain.",
        discussion: """
            Each file holds one DER certificate or PEM CERTIFICATE blocks. A certificate the keychain \
            already holds is reported and the others are still added; the exit status is then 45 \
            (errSecDuplicateItem).
            """)

    @Option(name: .customShort("k"), help: ArgumentHelp("The keychain to add to (default: the default keychain).", valueName: "keychain"))
    var keychain: String?

    @Argument(help: ArgumentHelp("Certificate files.", valueName: "file"))
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one certificate file.") }
    }

    func run() throws {
        // Every file is read before anything is added: a bad file adds nothing.
        let certificates = try files.flatMap { file throws(ToolFailure) in try CertificateFile.certificates(at: file) }
        var failure: ToolFailure?
        try KeychainLocation(argument: keychain).run(accessGroups: [KeychainOptions.ownGroup, KeychainEnvironment.everyAccessGroup]) { store in
            for certificate in certificates {
                do {
                    try store.add([kSecValueRef as String: certificate])
                } catch let error as ToolFailure {
                    ConsoleOutput.error(error.message)
                    failure = error
                }
            }
        }
        // Each failure was printed as it happened; the last one's status ends the command.
        if let failure { throw ToolFailure(message: "", exitStatus: failure.exitStatus, status: failure.status) }
    }
}
