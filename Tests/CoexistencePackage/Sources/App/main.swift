import Foundation
import Crypto
import JWTKit
import Security
import X509

// Code written for Apple platforms, unchanged: swift-certificates' conversions to and from
// SecCertificate, and jwt-kit's signing, beside Security's own calls.
var failures: [String] = []
@MainActor func check(_ condition: Bool, _ rule: String) {
    if !condition { failures.append(rule) }
}

let key = P256.Signing.PrivateKey()
let name = try DistinguishedName { CommonName("coexist.example") }
let now = Date()
let certificate = try Certificate(
    version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
    notValidBefore: now - 60, notValidAfter: now + 3600,
    issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
    extensions: Certificate.Extensions {}, issuerPrivateKey: .init(key))
let der = try certificate.serializeAsPEM().derBytes

let secCertificate = try SecCertificate.makeWithCertificate(certificate)
check(Array(SecCertificateCopyData(secCertificate) as Data) == der, "SecCertificateCopyData gives the certificate's DER")
check(try Certificate(secCertificate) == certificate, "Certificate(SecCertificate) gives back the same certificate")
let created = SecCertificateCreateWithData(nil, Data(der) as CFData)
check(try created.map { try Certificate($0) } == certificate, "a SecCertificate made from the DER converts to the same certificate")
check(SecCertificateCopySubjectSummary(secCertificate) as String? == "coexist.example", "the subject summary is the common name")

struct Claims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    func verify(using algorithm: some JWTAlgorithm) throws { try exp.verifyNotExpired() }
}
// Signed with the certificate's private key; verified with the public key of the
// certificate as it came back from SecCertificate, and rejected under another key.
let signers = JWTKeyCollection()
await signers.add(ecdsa: try ES256PrivateKey(backing: key))
let token = try await signers.sign(Claims(sub: "coexist", exp: .init(value: now + 3600)))
let verifiers = JWTKeyCollection()
await verifiers.add(ecdsa: try ES256PublicKey(certificate: try Certificate(secCertificate).serializeAsPEM().pemString))
check((try? await verifiers.verify(token, as: Claims.self))?.sub.value == "coexist",
      "jwt-kit verifies the token with the key of the certificate that went through SecCertificate")
let others = JWTKeyCollection()
await others.add(ecdsa: try ES256PublicKey(backing: P256.Signing.PrivateKey().publicKey))
check((try? await others.verify(token, as: Claims.self)) == nil, "jwt-kit rejects the token under another key")

print(failures.isEmpty ? "coexistence: ok" : "coexistence: FAILED: " + failures.joined(separator: "; "))
exit(failures.isEmpty ? 0 : 1)
