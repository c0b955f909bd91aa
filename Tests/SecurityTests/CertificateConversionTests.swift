import Foundation
import Security
import Testing
import TestSupport
import X509

/// swift-certificates' conversions between `Certificate` and `SecCertificate`, which its own
/// `#if canImport(Security)` code never compiles against this module (X509 is built first),
/// declared by `Security` with the same signatures: checked against certificates made by
/// `openssl`, an implementation independent of both.
@Suite("Certificate and SecCertificate conversions")
struct CertificateConversionTests {
    @Test("Certificate(SecCertificate) equals swift-certificates' parse of openssl's DER, EC and RSA")
    func certificateFromSecCertificateMatchesDirectParse() throws {
        for key in [CertificateTests.ecKey, CertificateTests.rsaKey] {
            let der = try Data(contentsOf: try CertificateTests.opensslCertificate(key: key, subject: "/CN=Conversion", serial: "9"))
            let secCertificate = try #require(SecCertificateCreateWithData(nil, der as CFData))
            #expect(try Certificate(secCertificate) == Certificate(derEncoded: Array(der)))
        }
    }

    @Test("SecCertificate.makeWithCertificate keeps openssl's DER byte for byte (SecCertificateCopyData) and converts back to the same certificate")
    func makeWithCertificateKeepsTheEncoding() throws {
        for key in [CertificateTests.ecKey, CertificateTests.rsaKey] {
            let der = try Data(contentsOf: try CertificateTests.opensslCertificate(key: key, subject: "/CN=Conversion/O=Example", serial: "10"))
            let certificate = try Certificate(derEncoded: Array(der))
            let secCertificate = try SecCertificate.makeWithCertificate(certificate)
            #expect(SecCertificateCopyData(secCertificate) as Data == der)
            #expect(SecCertificateCopySubjectSummary(secCertificate) as String? == "Conversion")
            #expect(try Certificate(secCertificate) == certificate)
        }
    }
}
