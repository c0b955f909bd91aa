internal import Crypto
import Foundation

// Private keys in the DER forms other tools exchange: PKCS #8 `PrivateKeyInfo` (PKCS #12 files,
// `openssl genpkey`), SEC 1 `ECPrivateKey` and PKCS #1 `RSAPrivateKey` (`openssl ec`, `rsa`).
extension KeyMaterial {
    /// The private key of a PKCS #8, SEC 1 or PKCS #1 DER encoding: P-256, P-384, P-521 or RSA.
    init(privateKeyDER der: Data) throws(KeyFailure) {
        if let key = try? P256.Signing.PrivateKey(derRepresentation: der) {
            self = .ellipticCurvePrivate(.p256(key))
        } else if let key = try? P384.Signing.PrivateKey(derRepresentation: der) {
            self = .ellipticCurvePrivate(.p384(key))
        } else if let key = try? P521.Signing.PrivateKey(derRepresentation: der) {
            self = .ellipticCurvePrivate(.p521(key))
        } else if let key = RSAPrivateKey(derRepresentation: der) {
            self = .rsaPrivate(key)
        } else {
            throw KeyFailure(.decode, "the data is not a P-256, P-384, P-521 or RSA private key in PKCS #8, SEC 1 or PKCS #1 DER")
        }
    }

    /// The private key as PKCS #8 `PrivateKeyInfo` DER; nil for a public key, or one held in a
    /// TPM (whose scalar never leaves it). It holds the
    /// secret: the caller must not keep or log it.
    var pkcs8DERRepresentation: Data? {
        switch self {
        case .ellipticCurvePrivate(.p256(let key)): key.derRepresentation
        case .ellipticCurvePrivate(.p384(let key)): key.derRepresentation
        case .ellipticCurvePrivate(.p521(let key)): key.derRepresentation
        case .rsaPrivate(let key): key.pkcs8DERRepresentation
        case .ellipticCurvePublic, .rsaPublic, .tpmPrivate: nil
        }
    }
}
