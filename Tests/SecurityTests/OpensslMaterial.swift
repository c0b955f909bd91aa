import Foundation
import Testing
import TestSupport

/// A key and a self-signed certificate made by the `openssl` command: an independent
/// implementation whose output the item tests compare the keychain's derived attributes with.
struct OpensslMaterial {
    let folder: URL
    /// The certificate in DER.
    let certificate: Data
    /// The private key as openssl wrote it (PKCS #8 PEM).
    let privateKeyPEM: String

    /// Makes a P-256 key (or an RSA key of `rsaBits`) and a certificate for it, with the
    /// subject and serial given and, unless `subjectKeyIdentifier` is false, openssl's
    /// default subject key identifier extension.
    init(subject: String = "/CN=Item Test/O=Example", serial: String = "0x1234", rsaBits: Int? = nil,
         subjectKeyIdentifier: Bool = true) throws {
        folder = TestScratch.folder("openssl")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = rsaBits.map { ["rsa:\($0)"] } ?? ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        let certificateFile = folder.appendingPathComponent("certificate.der")
        let keyFile = folder.appendingPathComponent("key.pem")
        let extensions = subjectKeyIdentifier ? [] : ["-addext", "subjectKeyIdentifier=none"]
        let result = try Self.openssl(["req", "-x509", "-newkey"] + key + [
            "-nodes", "-keyout", keyFile.path, "-subj", subject, "-set_serial", serial, "-days", "1",
            "-outform", "DER", "-out", certificateFile.path,
        ] + extensions)
        try #require(result.status == 0, "openssl req failed")
        certificate = try Data(contentsOf: certificateFile)
        privateKeyPEM = try String(contentsOf: keyFile, encoding: .utf8)
    }

    /// What `openssl x509` prints for the certificate with `options` (such as `-serial`).
    func x509Prints(_ options: [String]) throws -> String {
        let result = try Self.openssl(["x509", "-inform", "DER", "-in", folder.appendingPathComponent("certificate.der").path,
                                       "-noout"] + options)
        try #require(result.status == 0, "openssl x509 failed")
        return result.output
    }

    /// The RSA key in PKCS #1 DER as `openssl rsa` writes it: the private key
    /// (RSAPrivateKey) or its public half (RSAPublicKey).
    func rsaPKCS1(publicOnly: Bool) throws -> Data {
        let output = folder.appendingPathComponent(publicOnly ? "public.der" : "private.der")
        let result = try Self.openssl(["rsa", "-in", folder.appendingPathComponent("key.pem").path,
                                       publicOnly ? "-RSAPublicKey_out" : "-traditional",
                                       "-outform", "DER", "-out", output.path])
        try #require(result.status == 0, "openssl rsa failed")
        return try Data(contentsOf: output)
    }

    /// The hex digits openssl prints after `label=` or on the line after a label, without
    /// colons, lowercased.
    static func hexDigits(_ text: String) -> String {
        String(text.lowercased().filter { "0123456789abcdef".contains($0) })
    }

    /// Runs `openssl`, returning its exit status and standard output; standard input is
    /// `/dev/null` and errors are not shown.
    static func openssl(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = try SpawnedProcess("/usr/bin/openssl", arguments, environment: [:],
                                         stdin: .open("/dev/null", 0), stdout: .pipe,
                                         stderr: .open("/dev/null", 1))
        let output = process.readOutputToEnd()
        return (process.wait().status, output)
    }
}

extension Data {
    var lowercaseHex: String { map { String(format: "%02x", $0) }.joined() }
}
