internal import Crypto
import Foundation
import X509

/// The public key of a certificate, from its SubjectPublicKeyInfo.
///
/// - Parameter certificate: The certificate.
/// - Returns: The key for elliptic-curve (P-256, P-384, P-521) and RSA keys; nil for a key
///   of another algorithm.
@discardableResult
public func SecCertificateCopyKey(_ certificate: SecCertificate) -> SecKey? {
    let key = certificate.parsed.publicKey
    let material: KeyMaterial
    if let p256 = P256.Signing.PublicKey(key) {
        material = .ellipticCurvePublic(.p256(p256))
    } else if let p384 = P384.Signing.PublicKey(key) {
        material = .ellipticCurvePublic(.p384(p384))
    } else if let p521 = P521.Signing.PublicKey(key) {
        material = .ellipticCurvePublic(.p521(p521))
    } else if let rsa = RSAPublicKey(derRepresentation: Data(key.subjectPublicKeyInfoBytes)) {
        material = .rsaPublic(rsa)
    } else {
        return nil
    }
    return SecKey(material: material)
}
