import ArgumentParser
import Foundation
import Security

/// `export`: a keychain's certificates (PEM or DER) or identities (PKCS #12), as `security
/// export` writes them.
struct ExportItems: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export certificates (PEM, DER) or identities (PKCS #12) from a keychain.",
        discussion: """
            -t certs (the default) writes every certificate, as PEM (-f pemseq, the default) or, for \
            one certificate, DER (-f x509). -t identities writes every identity (certificate and \
            private key) into one PKCS #12 file (-f pkcs12) under a passphrase from -P, \
            --passphrase-stdin or the terminal, the way OpenSSL 3 writes it (PBES2, AES-256-CBC, \
            HMAC-SHA-256), so openssl pkcs12 and every PKCS #12 reader open it. The output goes to -o \
            (a new file only its owner may read) or to standard output.
            """)

    enum ItemType: String, ExpressibleByArgument, CaseIterable {
        case certs, identities
    }

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case pemseq, x509, pkcs12
    }

    @Option(name: .customShort("k"), help: ArgumentHelp("The keychain to export from (default: the default keychain).", valueName: "keychain"))
    var keychain: String?

    @Option(name: .customShort("t"), help: ArgumentHelp("What to export: certs or identities.", valueName: "type"))
    var type: ItemType = .certs

    @Option(name: .customShort("f"), help: ArgumentHelp("The format: pemseq or x509 for certs, pkcs12 for identities.", valueName: "format"))
    var format: Format?

    @Flag(name: .customShort("p"), help: "PEM armour (the default for certificates).")
    var pem = false

    @Option(name: .customShort("P"), help: ArgumentHelp("The PKCS #12 passphrase (shows in ps: prefer --passphrase-stdin).", valueName: "passphrase"))
    var passphrase: String?

    @OptionGroup var passphraseInput: StandardInputPassphrase

    @Option(name: .customShort("o"), help: ArgumentHelp("The file to write (default: standard output).", valueName: "outfile"))
    var output: String?

    var chosenFormat: Format { format ?? (type == .certs ? .pemseq : .pkcs12) }

    func validate() throws {
        switch (type, chosenFormat) {
        case (.certs, .pemseq), (.certs, .x509), (.identities, .pkcs12): break
        default: throw ValidationError("-t \(type.rawValue) cannot be written as -f \(chosenFormat.rawValue): certs are pemseq or x509, identities pkcs12.")
        }
        if pem, chosenFormat != .pemseq { throw ValidationError("-p (PEM) goes with -f pemseq only.") }
        if passphrase != nil, passphraseInput.isSet { throw ValidationError("Give the passphrase with -P or --passphrase-stdin, not both.") }
        if type == .certs, passphrase != nil || passphraseInput.isSet { throw ValidationError("Certificates are exported without a passphrase.") }
    }

    func run() throws {
        if let output, let problem = PathDiagnosis.creating(output, createsFolders: false) {
            throw ToolFailure.other("cannot write \(output): \(problem)")
        }
        let location = KeychainLocation(argument: keychain)
        let bytes: Data
        switch type {
        case .certs:
            let certificates = try location.runSeeingEveryGroup { store in try store.certificates().map(\.certificate) }
            guard !certificates.isEmpty else { throw ToolFailure.status(errSecItemNotFound, during: "export") }
            if chosenFormat == .x509 {
                guard certificates.count == 1 else {
                    throw ToolFailure.other("export: the keychain holds \(certificates.count) certificates and DER (-f x509) holds one; use -f pemseq")
                }
                bytes = SecCertificateCopyData(certificates[0]) as Data
            } else {
                bytes = Data(certificates.map(CertificateFile.pem).joined().utf8)
            }
        case .identities:
            let identities = try location.runSeeingEveryGroup { store in try store.identities() }
            guard !identities.isEmpty else { throw ToolFailure.status(errSecItemNotFound, during: "export") }
            let secret = try passphrase.map { Data($0.utf8) } ?? passphraseInput.read()
                ?? PasswordPrompt.newPassword("passphrase for the exported file: ", retype: "retype passphrase for the exported file: ")
            do {
                bytes = try SecPKCS12Export(identities, passphrase: String(decoding: secret, as: UTF8.self))
            } catch {
                throw ToolFailure.status(error.status, during: "export", reason: error.reason)
            }
        }
        if let output {
            do {
                try SecPrivateFileWriter.write(bytes, to: output)
            } catch {
                throw ToolFailure.other("cannot write \(output): \(PathDiagnosis.creating(output, createsFolders: false) ?? error.reason ?? error.description)")
            }
        } else {
            try ConsoleOutput.writeBytes(bytes)
        }
    }
}

extension ItemStore {
    /// Every identity in the keychain.
    func identities() throws -> [SecIdentity] {
        var result: CFTypeRef?
        let status = SecItemCopyMatching([
            kSecClass as String: kSecClassIdentity, kSecReturnRef as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll, kSecUseKeychain as String: keychain,
        ] as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        try check(status, "SecItemCopyMatching")
        return result as? [SecIdentity] ?? []
    }
}
