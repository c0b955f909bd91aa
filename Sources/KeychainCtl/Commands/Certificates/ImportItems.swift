import ArgumentParser
import Foundation
import Security

/// `import`: certificates, private keys and identities from a file into a keychain, as
/// `security import` takes them: PKCS #12, PEM (certificates and unencrypted private keys) or
/// one DER certificate.
struct ImportItems: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import certificates, keys and identities (PKCS #12, PEM or DER) into a keychain.",
        discussion: """
            The format is found from the contents (or -f): PEM text (CERTIFICATE, PRIVATE KEY, EC \
            PRIVATE KEY and RSA PRIVATE KEY blocks), one DER certificate, or PKCS #12 (what openssl \
            pkcs12 -export writes, with or without -legacy). A PKCS #12 file's passphrase comes from \
            -P, --passphrase-stdin or a prompt on the terminal; a file without one needs none. Each \
            private key is stored with its certificate as an identity. Prints how many identities, \
            certificates and keys were imported; an item the keychain already holds is reported and \
            the command exits 45 (errSecDuplicateItem) after importing the others.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case pkcs12, pemseq, x509
    }

    @Argument(help: ArgumentHelp("The file to import.", valueName: "inputfile"))
    var file: String

    @Option(name: .customShort("k"), help: ArgumentHelp("The keychain to import into (default: the default keychain).", valueName: "keychain"))
    var keychain: String?

    @Option(name: .customShort("f"), help: ArgumentHelp("The format: pkcs12, pemseq or x509 (default: found from the contents).", valueName: "format"))
    var format: Format?

    @Option(name: .customShort("P"), help: ArgumentHelp("The PKCS #12 passphrase (shows in ps: prefer --passphrase-stdin).", valueName: "passphrase"))
    var passphrase: String?

    @OptionGroup var passphraseInput: StandardInputPassphrase

    func validate() throws {
        if passphrase != nil, passphraseInput.isSet {
            throw ValidationError("Give the passphrase with -P or --passphrase-stdin, not both.")
        }
    }

    func run() throws {
        let bytes = try BoundedFile.read(file, limit: CertificateFile.sizeLimit)
        let contents = try ImportedContents.read(bytes, format: format, file: file, passphrase: { () throws(ToolFailure) -> String? in
            if let passphrase { return passphrase }
            if let data = try passphraseInput.read() { return String(decoding: data, as: UTF8.self) }
            return nil
        })
        var counts = (identities: 0, certificates: 0, keys: 0)
        var failure: ToolFailure?
        try KeychainLocation(argument: keychain).run(accessGroups: [KeychainOptions.ownGroup, KeychainEnvironment.everyAccessGroup]) { store in
            func add(_ reference: AnyObject, counting keyPath: WritableKeyPath<(identities: Int, certificates: Int, keys: Int), Int>,
                     reportingDuplicates: Bool = true) throws {
                do {
                    try store.add([kSecValueRef as String: reference])
                    counts[keyPath: keyPath] += 1
                } catch let error as ToolFailure where error.status == errSecDuplicateItem {
                    guard reportingDuplicates else { return }
                    ConsoleOutput.error(error.message)
                    failure = error
                }
            }
            for identity in contents.identities { try add(identity, counting: \.identities) }
            // The issuers that came with an identity are added when missing, quietly.
            for certificate in contents.chainCertificates { try add(certificate, counting: \.certificates, reportingDuplicates: false) }
            for certificate in contents.certificates { try add(certificate, counting: \.certificates) }
            for key in contents.keys { try add(key, counting: \.keys) }
        }
        for (count, one, many) in [(counts.identities, "identity", "identities"), (counts.certificates, "certificate", "certificates"),
                                   (counts.keys, "key", "keys")] where count > 0 {
            ConsoleOutput.write("\(count) \(count == 1 ? one : many) imported.\n")
        }
        if let failure { throw ToolFailure(message: "", exitStatus: failure.exitStatus, status: failure.status) }
    }
}

/// What a file to import holds.
struct ImportedContents {
    var identities: [SecIdentity] = []
    /// The issuers of the identities' certificates, from a PKCS #12 file.
    var chainCertificates: [SecCertificate] = []
    var certificates: [SecCertificate] = []
    var keys: [SecKey] = []

    static func read(_ bytes: Data, format: ImportItems.Format?, file: String,
                     passphrase: () throws(ToolFailure) -> String?) throws(ToolFailure) -> ImportedContents {
        if format != .pkcs12, let blocks = CertificateFile.pemBlocks(in: bytes) {
            var contents = ImportedContents()
            for block in blocks {
                switch block.discriminator {
                case "CERTIFICATE":
                    guard let certificate = SecCertificateCreateWithData(nil, Data(block.derBytes) as CFData) else {
                        throw .other("\(file): a CERTIFICATE block is not a certificate")
                    }
                    contents.certificates.append(certificate)
                case "PRIVATE KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY":
                    guard let key = SecKeyCreateWithPrivateKeyDER(Data(block.derBytes)) else {
                        throw .other("\(file): a \(block.discriminator) block is not an EC (P-256, P-384, P-521) or RSA private key")
                    }
                    contents.keys.append(key)
                case "ENCRYPTED PRIVATE KEY":
                    throw .other("\(file): encrypted PEM private keys are not supported; decrypt it first (openssl pkey -in \(file))")
                default:
                    continue
                }
            }
            guard !contents.certificates.isEmpty || !contents.keys.isEmpty else {
                throw .other("\(file) holds no certificate or private key")
            }
            return contents
        }
        if format != .pkcs12, let certificate = SecCertificateCreateWithData(nil, bytes as CFData) {
            return ImportedContents(certificates: [certificate])
        }
        guard format == nil || format == .pkcs12 else { throw .other("\(file) is not in the format \(format?.rawValue ?? "")") }
        return try pkcs12(bytes, file: file, passphrase: passphrase)
    }

    private static func pkcs12(_ bytes: Data, file: String, passphrase: () throws(ToolFailure) -> String?) throws(ToolFailure) -> ImportedContents {
        var given = try passphrase()
        var items: CFArray?
        var status = SecPKCS12Import(bytes as CFData, (given.map { [kSecImportExportPassphrase as String: $0] } ?? [:]) as CFDictionary, &items)
        if status == errSecPassphraseRequired, given == nil, isatty(STDIN_FILENO) == 1 {
            guard let typed = PasswordPrompt.ask("passphrase for \(file): ") else { throw .other("no passphrase was entered") }
            given = String(decoding: typed, as: UTF8.self)
            status = SecPKCS12Import(bytes as CFData, [kSecImportExportPassphrase as String: given ?? ""] as CFDictionary, &items)
        }
        guard status == errSecSuccess else {
            throw .status(status, during: "SecPKCS12Import \(file)")
        }
        var contents = ImportedContents()
        for case let item as [String: Any] in (items as? [Any]) ?? [] {
            guard let identity = item[kSecImportItemIdentity as String] as? SecIdentity else { continue }
            contents.identities.append(identity)
            let chain = item[kSecImportItemCertChain as String] as? [SecCertificate] ?? []
            contents.chainCertificates += chain.dropFirst()
        }
        guard !contents.identities.isEmpty else { throw .other("\(file) holds no private key with its certificate") }
        return contents
    }
}
