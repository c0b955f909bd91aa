import Crypto
import Foundation
import Security
import SwiftASN1
import Testing
import TestSupport
import X509

/// SecCertificate: certificates made by the `openssl` command and by swift-certificates'
/// builder are read back, each function checked against what `openssl x509` prints for the
/// same file; anything that is not one DER certificate gives nil.
@Suite("SecCertificate")
struct CertificateTests {
    // MARK: Certificates to read

    /// A certificate made by `openssl req -x509`, in DER, with the key type and subject given.
    static func opensslCertificate(key: [String], subject: String, serial: String,
                                           extensions: [String] = []) throws -> URL {
        let folder = TestScratch.folder("certificates")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("certificate.der")
        let result = try OpensslMaterial.openssl(["req", "-x509", "-newkey"] + key + [
            "-utf8", "-nodes", "-keyout", folder.appendingPathComponent("key.pem").path,
            "-subj", subject, "-set_serial", serial, "-days", "1", "-outform", "DER",
            "-out", certificate.path,
        ] + extensions.flatMap { ["-addext", $0] })
        try #require(result.status == 0, "openssl req failed")
        return certificate
    }

    static let ecKey = ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
    static let rsaKey = ["rsa:2048"]

    /// What `openssl x509` prints for a DER certificate, with `options` (such as `-serial`).
    private static func opensslPrints(_ certificate: URL, _ options: [String]) throws -> String {
        let result = try OpensslMaterial.openssl(["x509", "-inform", "DER", "-in", certificate.path, "-noout"] + options)
        try #require(result.status == 0, "openssl x509 failed")
        return result.output
    }

    /// The values openssl prints for one attribute type of the subject, in order
    /// (`-nameopt multiline,utf8,-esc_msb` prints one `name = value` line per attribute).
    private static func opensslSubjectValues(_ certificate: URL, _ longName: String) throws -> [String] {
        try opensslPrints(certificate, ["-subject", "-nameopt", "multiline,utf8,-esc_msb"])
            .split(separator: "\n")
            .compactMap { line -> String? in
                let parts = line.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == longName else { return nil }
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
    }

    private static func create(_ bytes: Data) -> SecCertificate? {
        SecCertificateCreateWithData(nil, bytes as CFData)
    }

    private static func hex(_ data: CFData?) -> String? {
        (data as Data?).map { $0.map { String(format: "%02X", $0) }.joined() }
    }

    /// A certificate signed by a P-256 key, made by swift-certificates' builder.
    private static func builtCertificate(subject: DistinguishedName, serial: [UInt8] = [0x01, 0x02],
                                         extensions: Certificate.Extensions = .init()) throws -> Data {
        let key = P256.Signing.PrivateKey()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(bytes: serial),
            publicKey: .init(key.publicKey), notValidBefore: Date(), notValidAfter: Date() + 3600,
            issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: .init(key))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Data(serializer.serializedBytes)
    }

    // MARK: Data in, data out

    @Test("SecCertificateCreateWithData reads openssl's EC and RSA certificates; SecCertificateCopyData gives the same DER bytes")
    func createAndCopyDataRoundTripOpensslCertificates() throws {
        for key in [Self.ecKey, Self.rsaKey] {
            let file = try Self.opensslCertificate(key: key, subject: "/CN=Round Trip", serial: "7")
            let der = try Data(contentsOf: file)
            let certificate = try #require(Self.create(der))
            #expect(SecCertificateCopyData(certificate) as Data == der)
        }
    }

    // MARK: Names against openssl

    @Test("Common name, email addresses and summary are those openssl prints for the subject and SAN")
    func namesMatchWhatOpensslPrints() throws {
        let file = try Self.opensslCertificate(
            key: Self.ecKey, subject: "/O=Example Org/CN=Alice Exämple/emailAddress=alice@example.com",
            serial: "42", extensions: ["subjectAltName=email:alice.alt@example.org,DNS:alice.example.org"])
        let certificate = try #require(Self.create(try Data(contentsOf: file)))

        let opensslCommonNames = try Self.opensslSubjectValues(file, "commonName")
        #expect(opensslCommonNames == ["Alice Exämple"])
        var commonName: CFString?
        #expect(SecCertificateCopyCommonName(certificate, &commonName) == errSecSuccess)
        #expect(commonName as String? == opensslCommonNames.last)

        // openssl -email lists every address (subject, then SAN); Apple lists the SAN's first.
        let opensslEmails = try Self.opensslPrints(file, ["-email"]).split(separator: "\n").map(String.init)
        var emails: CFArray?
        #expect(SecCertificateCopyEmailAddresses(certificate, &emails) == errSecSuccess)
        let ours = try #require(emails as? [String])
        #expect(Set(ours) == Set(opensslEmails))
        #expect(ours == ["alice.alt@example.org", "alice@example.com"])

        // The common name is the most specific of the subject's names.
        #expect(SecCertificateCopySubjectSummary(certificate) as String? == "Alice Exämple")
    }

    @Test("Apple's summary: several common names are joined, the last first; without one, organizational units, then organizations")
    func summaryTakesTheMostSpecificKindOfName() throws {
        let twoNames = try Self.opensslCertificate(key: Self.ecKey, subject: "/O=Org/CN=First/CN=Second", serial: "1")
        #expect(try Self.opensslSubjectValues(twoNames, "commonName") == ["First", "Second"])
        let certificate = try #require(Self.create(try Data(contentsOf: twoNames)))
        #expect(SecCertificateCopySubjectSummary(certificate) as String? == "Second, First")
        var commonName: CFString?
        #expect(SecCertificateCopyCommonName(certificate, &commonName) == errSecSuccess)
        #expect(commonName as String? == "Second")   // Apple returns the last common name

        let units = try Self.opensslCertificate(key: Self.rsaKey, subject: "/C=US/O=Org/OU=Unit/OU=Other Unit", serial: "2")
        #expect(try Self.opensslSubjectValues(units, "organizationalUnitName") == ["Unit", "Other Unit"])
        #expect(SecCertificateCopySubjectSummary(try #require(Self.create(try Data(contentsOf: units)))) as String?
            == "Other Unit, Unit")
        let organization = try Self.opensslCertificate(key: Self.ecKey, subject: "/C=US/O=Org", serial: "3")
        #expect(SecCertificateCopySubjectSummary(try #require(Self.create(try Data(contentsOf: organization)))) as String? == "Org")
        let country = try Self.opensslCertificate(key: Self.ecKey, subject: "/C=US/L=Springfield", serial: "4")
        #expect(SecCertificateCopySubjectSummary(try #require(Self.create(try Data(contentsOf: country)))) as String?
            == "Springfield, US")
    }

    @Test("Apple's summary: a description follows common names in parentheses, and only them")
    func summaryAddsTheDescriptionToCommonNames() throws {
        let named = try Self.opensslCertificate(key: Self.ecKey, subject: "/CN=Server/description=Staging", serial: "5")
        #expect(try Self.opensslSubjectValues(named, "description") == ["Staging"])
        #expect(SecCertificateCopySubjectSummary(try #require(Self.create(try Data(contentsOf: named)))) as String?
            == "Server (Staging)")
        let unit = try Self.opensslCertificate(key: Self.ecKey, subject: "/OU=Unit/description=Staging", serial: "6")
        #expect(SecCertificateCopySubjectSummary(try #require(Self.create(try Data(contentsOf: unit)))) as String? == "Unit")
    }

    @Test("Apple's summary: without a common name, an email address or DNS name of the certificate comes before units and organizations")
    func summaryPrefersAlternativeNamesToUnits() throws {
        let withEmail = try Self.opensslCertificate(
            key: Self.ecKey, subject: "/O=Org/OU=Unit", serial: "7",
            extensions: ["subjectAltName=DNS:unit.example.com,email:unit@example.com"])
        #expect(SecCertificateCopySubjectSummary(try #require(Self.create(try Data(contentsOf: withEmail)))) as String?
            == "unit@example.com")
        let withHost = try Self.opensslCertificate(
            key: Self.ecKey, subject: "/O=Org/OU=Unit", serial: "8", extensions: ["subjectAltName=DNS:unit.example.com"])
        #expect(SecCertificateCopySubjectSummary(try #require(Self.create(try Data(contentsOf: withHost)))) as String?
            == "unit.example.com")
        // A common name comes first all the same.
        let named = try Self.opensslCertificate(
            key: Self.ecKey, subject: "/CN=Named", serial: "9", extensions: ["subjectAltName=email:named@example.com"])
        #expect(SecCertificateCopySubjectSummary(try #require(Self.create(try Data(contentsOf: named)))) as String? == "Named")
    }

    @Test("A subject without names: no common name is errSecInternal, the summary falls back to the first email, then the DNS name")
    func subjectWithoutNamesFallsBackToAlternativeNames() throws {
        let withEmail = try Self.builtCertificate(subject: DistinguishedName(), extensions: try Certificate.Extensions {
            SubjectAlternativeNames([.dnsName("host.example.com"), .rfc822Name("first@example.com"), .rfc822Name("second@example.com")])
        })
        let certificate = try #require(Self.create(withEmail))
        var commonName: CFString? = "untouched" as NSString
        #expect(SecCertificateCopyCommonName(certificate, &commonName) == errSecInternal)
        #expect(commonName as String? == "untouched")
        #expect(SecCertificateCopySubjectSummary(certificate) as String? == "first@example.com")

        let withHost = try Self.builtCertificate(subject: DistinguishedName(), extensions: try Certificate.Extensions {
            SubjectAlternativeNames([.dnsName("host.example.com")])
        })
        let hostCertificate = try #require(Self.create(withHost))
        #expect(SecCertificateCopySubjectSummary(hostCertificate) as String? == "host.example.com")
        var emails: CFArray?
        #expect(SecCertificateCopyEmailAddresses(hostCertificate, &emails) == errSecSuccess)
        #expect((emails as? [String]) == [])

        let nameless = try Self.builtCertificate(subject: DistinguishedName())
        #expect(SecCertificateCopySubjectSummary(try #require(Self.create(nameless))) == nil)
    }

    // MARK: Serial numbers against openssl

    @Test("SecCertificateCopySerialNumberData gives the INTEGER's content bytes: openssl's serial, with DER's zero byte before a high bit")
    func serialNumberMatchesOpenssl() throws {
        for (serial, leadingZero) in [("0x0102AB", ""), ("0x80FF0001", "00"), ("0x7F", "")] {
            let file = try Self.opensslCertificate(key: Self.ecKey, subject: "/CN=Serial", serial: serial)
            let printed = try Self.opensslPrints(file, ["-serial"]).trimmingCharacters(in: .whitespacesAndNewlines)
            let certificate = try #require(Self.create(try Data(contentsOf: file)))
            var error: Unmanaged<CFError>?
            let data = SecCertificateCopySerialNumberData(certificate, &error)
            #expect(error == nil)
            #expect(printed.hasPrefix("serial="))
            #expect(Self.hex(data) == leadingZero + printed.dropFirst("serial=".count))
        }
        // swift-certificates' builder, with the bytes Apple documents: 00 80 01 for 0x8001.
        let built = try #require(Self.create(try Self.builtCertificate(subject: DistinguishedName(), serial: [0x80, 0x01])))
        #expect(Self.hex(SecCertificateCopySerialNumberData(built, nil)) == "008001")
    }

    // MARK: Normalized names

    @Test("Normalized names (RFC 5280 7.1, as Apple): PrintableString uppercased with spaces folded; UTF8String and order untouched")
    func normalizedSequencesFoldPrintableStrings() throws {
        let subject = DistinguishedName([
            RelativeDistinguishedName(try .init(type: .RDNAttributeType.countryName, printableString: "us")),
            RelativeDistinguishedName(try .init(type: .RDNAttributeType.commonName, printableString: "  Mixed   Case name  ")),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationName, utf8String: "  Keep  this ")),
        ])
        let expected = DistinguishedName([
            RelativeDistinguishedName(try .init(type: .RDNAttributeType.countryName, printableString: "US")),
            RelativeDistinguishedName(try .init(type: .RDNAttributeType.commonName, printableString: "MIXED CASE NAME")),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationName, utf8String: "  Keep  this ")),
        ])
        var serializer = DER.Serializer()
        try serializer.serialize(expected)
        let certificate = try #require(Self.create(try Self.builtCertificate(subject: subject)))
        let normalizedSubject = try #require(SecCertificateCopyNormalizedSubjectSequence(certificate))
        #expect([UInt8](normalizedSubject as Data) == serializer.serializedBytes)
        // Self-signed: the issuer is the same name.
        #expect(SecCertificateCopyNormalizedIssuerSequence(certificate) as Data? == normalizedSubject as Data)
    }

    @Test("An openssl certificate's normalized names are its encoded subject and issuer when nothing needs folding")
    func normalizedSequencesOfOpensslCertificateAreItsNames() throws {
        // openssl encodes the common name as UTF8String and the country as PrintableString.
        let file = try Self.opensslCertificate(key: Self.rsaKey, subject: "/C=GB/CN=mixed Case", serial: "5")
        let der = try Data(contentsOf: file)
        let parsed = try Certificate(derEncoded: [UInt8](der))
        var subject = DER.Serializer()
        try subject.serialize(parsed.subject)
        var issuer = DER.Serializer()
        try issuer.serialize(parsed.issuer)
        let certificate = try #require(Self.create(der))
        #expect(SecCertificateCopyNormalizedSubjectSequence(certificate) as Data? == Data(subject.serializedBytes))
        #expect(SecCertificateCopyNormalizedIssuerSequence(certificate) as Data? == Data(issuer.serializedBytes))
    }

    // MARK: Bad input

    @Test("Not a DER certificate gives nil, never a crash: every prefix, trailing bytes, PEM text, garbage, empty data, a serial Apple refuses")
    func anythingButOneDERCertificateIsNil() throws {
        let file = try Self.opensslCertificate(key: Self.ecKey, subject: "/CN=Truncated", serial: "9")
        let der = try Data(contentsOf: file)
        for length in 0 ..< der.count {
            #expect(Self.create(der.prefix(length)) == nil, "a prefix of \(length) bytes")
        }
        #expect(Self.create(der + [0x00]) == nil)
        let pemText = try OpensslMaterial.openssl(["x509", "-inform", "DER", "-in", file.path, "-outform", "PEM"])
        #expect(pemText.status == 0 && pemText.output.hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(Self.create(Data(pemText.output.utf8)) == nil)
        var generator = SeededGenerator(seed: 0x5EC_CE27)
        for length in [1, 2, 16, 300, 4096] {
            let garbage = Data((0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &generator) })
            #expect(Self.create(garbage) == nil)
        }
        // Apple refuses an explicit version other than v2 or v3 (1 or 2): openssl's v3 made v1 or v4.
        let version: [UInt8] = [0xA0, 0x03, 0x02, 0x01, 0x02]
        let versionAt = try #require([UInt8](der).indices.first { [UInt8](der).dropFirst($0).starts(with: version) })
        for number: UInt8 in [0, 3] {
            var patched = der
            patched[versionAt + 4] = number
            #expect(Self.create(patched) == nil, "explicit version \(number)")
        }
        // Apple refuses serial numbers of more than 37 bytes; swift-certificates would take them.
        #expect(Self.create(try Self.builtCertificate(subject: DistinguishedName(), serial: [UInt8](repeating: 0x11, count: 37))) != nil)
        #expect(Self.create(try Self.builtCertificate(subject: DistinguishedName(), serial: [UInt8](repeating: 0x11, count: 38))) == nil)
        // A DER SEQUENCE that is not a certificate.
        #expect(Self.create(Data([0x30, 0x03, 0x02, 0x01, 0x01])) == nil)
    }
}
