import Foundation
import Testing
import TestSupport

/// keychainctl's certificate, identity and trust subcommands, as macOS `security` offers them,
/// checked against what `openssl` says of the same files: fingerprints, PEM, verification
/// verdicts, and PKCS #12 files that openssl writes and reads.
@Suite struct CertificateCommandTests {
    let keychainctl = Keychainctl()
    let folder = TestScratch.folder("certificate-commands")

    /// A CA and a leaf it signs (P-256), the leaf for `leaf.example.com` with an email address,
    /// and the leaf's identity as a PKCS #12 file under `pw` (OpenSSL 3's default form).
    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("ca.key"),
                    "-subj", "/CN=Command Test CA", "-days", "2", "-out", path("ca.pem"))
        try openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("leaf.key"),
                    "-subj", "/CN=leaf.example.com/emailAddress=ops@example.com", "-out", path("leaf.csr"))
        try Data("subjectAltName=DNS:leaf.example.com\nextendedKeyUsage=serverAuth\n".utf8).write(to: URL(fileURLWithPath: path("ext")))
        try openssl("x509", "-req", "-in", path("leaf.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-set_serial", "7",
                    "-days", "1", "-extfile", path("ext"), "-out", path("leaf.pem"))
        try openssl("pkcs12", "-export", "-inkey", path("leaf.key"), "-in", path("leaf.pem"), "-certfile", path("ca.pem"),
                    "-name", "Leaf", "-passout", "pass:pw", "-out", path("leaf.p12"))
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @discardableResult
    func openssl(_ arguments: String...) throws -> String {
        let result = try SpawnedProcess.runToEnd("/usr/bin/openssl", arguments, environment: [:], outputIn: folder)
        try #require(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.errors)")
        return result.output
    }

    /// openssl's fingerprint of a certificate, as `security` prints it (uppercase, no colons).
    func fingerprint(_ file: String, _ digest: String) throws -> String {
        let line = try openssl("x509", "-in", path(file), "-noout", "-fingerprint", "-\(digest)")
        return String(line.split(separator: "=", maxSplits: 1).last ?? "").replacingOccurrences(of: ":", with: "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("add-certificates adds a PEM file's certificate once (a second add exits 45); find-certificate -Z prints openssl's fingerprints, -p its PEM")
    func addAndFindCertificates() throws {
        #expect(try keychainctl("add-certificates", path("ca.pem")).status == 0)
        let duplicate = try keychainctl("add-certificates", path("ca.pem"))
        #expect(duplicate.status == 45)
        #expect(duplicate.errors == "keychainctl: SecItemAdd: The specified item already exists in the keychain.\n")

        let found = try keychainctl("find-certificate", "-c", "Command Test", "-Z")
        #expect(found.status == 0)
        #expect(found.output.hasPrefix("SHA-256 hash: \(try fingerprint("ca.pem", "sha256"))\nSHA-1 hash: \(try fingerprint("ca.pem", "sha1"))\n"))
        #expect(found.output.contains("class: 0x80001000 \nattributes:\n"))
        #expect(found.output.contains("    \"labl\"<blob>=\"Command Test CA\"\n"))

        let pem = try keychainctl("find-certificate", "-c", "Command Test", "-p")
        #expect(pem.output == (try String(contentsOfFile: path("ca.pem"), encoding: .utf8)))
        #expect(try keychainctl("find-certificate", "-c", "No Such Name").status == 44)
    }

    /// A pipe whose data comes later (`<(...)`, `cmd | keychainctl ... /dev/stdin`) is read
    /// to its end, not refused as "temporarily unavailable".
    @Test("add-certificates reads a certificate from a pipe that is written later")
    func certificatesFromALatePipe() throws {
        let outcome = try keychainctl.shell("(sleep 0.3; cat '\(path("ca.pem"))') | \"$0\" add-certificates /dev/stdin")
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(try keychainctl("find-certificate", "-c", "Command Test CA").status == 0)
    }

    @Test("find-certificate -e matches the email address; delete-certificate -Z deletes by SHA-1 fingerprint")
    func emailAndDeleteByFingerprint() throws {
        #expect(try keychainctl("add-certificates", path("ca.pem"), path("leaf.pem")).status == 0)
        let byEmail = try keychainctl("find-certificate", "-a", "-e", "OPS@example.com", "-m")
        #expect(byEmail.output.hasPrefix("email addresses: ops@example.com\n"))
        #expect(byEmail.output.contains("\"labl\"<blob>=\"leaf.example.com\""))
        #expect(!byEmail.output.contains("\"labl\"<blob>=\"Command Test CA\""))

        #expect(try keychainctl("delete-certificate", "-Z", try fingerprint("leaf.pem", "sha1")).status == 0)
        #expect(try keychainctl("find-certificate", "-c", "leaf.example.com").status == 44)
        #expect(try keychainctl("find-certificate", "-c", "Command Test CA").status == 0)
    }

    @Test("verify-cert agrees with openssl verify: trusted with its root, a wrong host name and a missing root fail with exit 1")
    func verifyCertAgreesWithOpenssl() throws {
        try openssl("verify", "-CAfile", path("ca.pem"), path("leaf.pem"))
        let trusted = try keychainctl("verify-cert", "-c", path("leaf.pem"), "-r", path("ca.pem"), "-p", "ssl", "-s", "leaf.example.com")
        #expect(trusted.status == 0 && trusted.output == "...certificate verification successful.\n")

        let otherHost = try keychainctl("verify-cert", "-c", path("leaf.pem"), "-r", path("ca.pem"), "-p", "ssl", "-s", "other.example.com")
        #expect(otherHost.status == 1 && otherHost.errors == "Cert Verify Result: CSSMERR_APPLETP_HOSTNAME_MISMATCH\n")
        let opensslOtherHost = try SpawnedProcess.runToEnd("/usr/bin/openssl", ["verify", "-CAfile", path("ca.pem"), "-verify_hostname",
                                                                                 "other.example.com", path("leaf.pem")],
                                                            environment: [:], outputIn: folder)
        #expect(opensslOtherHost.status != 0)

        let noRoot = try keychainctl("verify-cert", "-c", path("leaf.pem"), "-q")
        #expect(noRoot.status == 1 && noRoot.output.isEmpty && noRoot.errors.isEmpty)
        let expired = try keychainctl("verify-cert", "-c", path("leaf.pem"), "-r", path("ca.pem"), "-d", "2099-01-01-00:00:00")
        #expect(expired.status == 1 && expired.errors == "Cert Verify Result: CSSMERR_TP_CERT_EXPIRED\n")
    }

    @Test("import reads openssl's PKCS #12 (default and -legacy); find-identity lists it by openssl's SHA-1; export -t identities writes a file openssl reads back to the same key")
    func importFindAndExportIdentities() throws {
        let imported = try keychainctl("import", path("leaf.p12"), "--passphrase-stdin", input: "pw\n")
        #expect(imported.status == 0)
        #expect(imported.output == "1 identity imported.\n1 certificate imported.\n")
        let wrong = try keychainctl("import", path("leaf.p12"), "-P", "nope")
        #expect(wrong.status == 51)  // errSecAuthFailed

        let identities = try keychainctl("find-identity")
        let sha1 = try fingerprint("leaf.pem", "sha1")
        #expect(identities.output.contains("  1) \(sha1) \"leaf.example.com\""))
        #expect(identities.output.contains("     1 identities found\n"))

        try openssl("pkcs12", "-export", "-legacy", "-inkey", path("leaf.key"), "-in", path("leaf.pem"), "-passout", "pass:old",
                    "-out", path("legacy.p12"))
        try keychainctl("create-keychain", "-p", "", "other")
        #expect(try keychainctl("import", path("legacy.p12"), "-P", "old", "-k", "other").output == "1 identity imported.\n")

        let exported = try keychainctl("export", "-t", "identities", "--passphrase-stdin", "-o", path("out.p12"), input: "new pw\n")
        #expect(exported.status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: path("out.p12"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try openssl("pkcs12", "-in", path("out.p12"), "-passin", "pass:new pw", "-nocerts", "-nodes", "-out", path("out.key"))
        #expect(try openssl("pkey", "-in", path("out.key"), "-pubout") == (try openssl("pkey", "-in", path("leaf.key"), "-pubout")))

        let certificates = try keychainctl("export", "-t", "certs")
        #expect(certificates.output.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 3)
    }
}
