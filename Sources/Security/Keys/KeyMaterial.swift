internal import Crypto
import Foundation

/// The elliptic curves SecKey supports: NIST P-256, P-384 and P-521 (Apple's
/// `kSecAttrKeyTypeECSECPrimeRandom` sizes 256, 384 and 521).
enum EllipticCurve: Sendable, CaseIterable {
    case p256, p384, p521

    /// The size Apple reports as `kSecAttrKeySizeInBits`.
    var bitCount: Int {
        switch self {
        case .p256: 256
        case .p384: 384
        case .p521: 521
        }
    }

    /// Bytes of one coordinate or of the private scalar.
    var coordinateByteCount: Int { (bitCount + 7) / 8 }

    init?(bitCount: Int) {
        guard let curve = Self.allCases.first(where: { $0.bitCount == bitCount }) else { return nil }
        self = curve
    }
}

/// The private half of an elliptic-curve key, as swift-crypto holds it. swift-crypto keeps
/// the scalar in BoringSSL memory, which is cleared when the key is freed.
enum EllipticCurvePrivateKey: Sendable {
    case p256(P256.Signing.PrivateKey)
    case p384(P384.Signing.PrivateKey)
    case p521(P521.Signing.PrivateKey)

    var curve: EllipticCurve {
        switch self {
        case .p256: .p256
        case .p384: .p384
        case .p521: .p521
        }
    }

    var publicKey: EllipticCurvePublicKey {
        switch self {
        case .p256(let key): .p256(key.publicKey)
        case .p384(let key): .p384(key.publicKey)
        case .p521(let key): .p521(key.publicKey)
        }
    }

    /// The private scalar, big-endian, of the curve's size. The caller must not keep it.
    var scalar: Data {
        switch self {
        case .p256(let key): key.rawRepresentation
        case .p384(let key): key.rawRepresentation
        case .p521(let key): key.rawRepresentation
        }
    }

    /// A new random key.
    init(randomOn curve: EllipticCurve) {
        switch curve {
        case .p256: self = .p256(P256.Signing.PrivateKey())
        case .p384: self = .p384(P384.Signing.PrivateKey())
        case .p521: self = .p521(P521.Signing.PrivateKey())
        }
    }

    /// The key with this scalar; nil when it is not a valid scalar of the curve.
    init?<Bytes: ContiguousBytes>(scalar: Bytes, curve: EllipticCurve) {
        switch curve {
        case .p256: guard let key = try? P256.Signing.PrivateKey(rawRepresentation: scalar) else { return nil }; self = .p256(key)
        case .p384: guard let key = try? P384.Signing.PrivateKey(rawRepresentation: scalar) else { return nil }; self = .p384(key)
        case .p521: guard let key = try? P521.Signing.PrivateKey(rawRepresentation: scalar) else { return nil }; self = .p521(key)
        }
    }
}

/// The public half of an elliptic-curve key.
enum EllipticCurvePublicKey: Sendable {
    case p256(P256.Signing.PublicKey)
    case p384(P384.Signing.PublicKey)
    case p521(P521.Signing.PublicKey)

    var curve: EllipticCurve {
        switch self {
        case .p256: .p256
        case .p384: .p384
        case .p521: .p521
        }
    }

    /// The uncompressed point, `04 ‖ X ‖ Y` (ANSI X9.63).
    var x963Representation: Data {
        switch self {
        case .p256(let key): key.x963Representation
        case .p384(let key): key.x963Representation
        case .p521(let key): key.x963Representation
        }
    }

    /// The point from its X9.63 uncompressed form; nil when it is not a point of the curve.
    init?(x963Representation bytes: Data, curve: EllipticCurve) {
        switch curve {
        case .p256: guard let key = try? P256.Signing.PublicKey(x963Representation: bytes) else { return nil }; self = .p256(key)
        case .p384: guard let key = try? P384.Signing.PublicKey(x963Representation: bytes) else { return nil }; self = .p384(key)
        case .p521: guard let key = try? P521.Signing.PublicKey(x963Representation: bytes) else { return nil }; self = .p521(key)
        }
    }
}

/// The key material a ``SecKey`` holds: one half of an elliptic-curve or RSA key pair.
///
/// The external representations are Apple's: X9.63 for elliptic-curve keys (`04 ‖ X ‖ Y`,
/// followed by the scalar `K` for a private key) and PKCS #1 DER for RSA keys.
enum KeyMaterial: Sendable {
    case ellipticCurvePrivate(EllipticCurvePrivateKey)
    case ellipticCurvePublic(EllipticCurvePublicKey)
    case rsaPrivate(RSAPrivateKey)
    case rsaPublic(RSAPublicKey)
    /// A P-256 private key held in a TPM 2.0 (a Secure Enclave-style key made where one is
    /// present): it signs through the TPM, and no scalar of it exists here.
    case tpmPrivate(TPMHeldKey)

    /// The algorithm family, as `kSecAttrKeyType` names it.
    enum Family: Sendable { case ellipticCurve, rsa }

    var family: Family {
        switch self {
        case .ellipticCurvePrivate, .ellipticCurvePublic, .tpmPrivate: .ellipticCurve
        case .rsaPrivate, .rsaPublic: .rsa
        }
    }

    var isPrivate: Bool {
        switch self {
        case .ellipticCurvePrivate, .rsaPrivate, .tpmPrivate: true
        case .ellipticCurvePublic, .rsaPublic: false
        }
    }

    /// The key's size in bits: the curve's size, or the RSA modulus's.
    var bitCount: Int {
        switch self {
        case .ellipticCurvePrivate(let key): key.curve.bitCount
        case .ellipticCurvePublic(let key): key.curve.bitCount
        case .rsaPrivate(let key): key.keySizeInBits
        case .rsaPublic(let key): key.keySizeInBits
        case .tpmPrivate: EllipticCurve.p256.bitCount
        }
    }

    /// The public half: the key itself when it is public.
    var publicKey: KeyMaterial {
        switch self {
        case .ellipticCurvePrivate(let key): .ellipticCurvePublic(key.publicKey)
        case .ellipticCurvePublic: self
        case .rsaPrivate(let key): .rsaPublic(key.publicKey)
        case .rsaPublic: self
        case .tpmPrivate(let key): .ellipticCurvePublic(.p256(key.publicKey))
        }
    }

    /// The external representation of the public half: the X9.63 point, or the PKCS #1
    /// `RSAPublicKey`. Apple's `kSecAttrApplicationLabel` of a key is the SHA-1 of this for
    /// elliptic-curve keys.
    var publicExternalRepresentation: Data {
        switch publicKey {
        case .ellipticCurvePublic(let key): key.x963Representation
        case .rsaPublic(let key): key.pkcs1DERRepresentation
        case .ellipticCurvePrivate, .rsaPrivate, .tpmPrivate: Data() // publicKey is never private
        }
    }

    /// Apple's external representation (see the type's description). For a private key it
    /// holds the secret: the caller must not keep or log it. A key held in a TPM has no
    /// secret here: its representation is its public point and the blob only its TPM can use
    /// (``TPMHeldKey/storedForm``), which ``init(externalRepresentation:family:isPrivate:)``
    /// does not read.
    var externalRepresentation: Data {
        switch self {
        case .ellipticCurvePrivate(let key): key.publicKey.x963Representation + key.scalar
        case .ellipticCurvePublic(let key): key.x963Representation
        case .rsaPrivate(let key): key.derRepresentation
        case .rsaPublic(let key): key.pkcs1DERRepresentation
        case .tpmPrivate(let key): key.storedForm
        }
    }

    /// Reads an external representation of the given family and class. The data alone gives
    /// the size: Apple's SecKeyCreateWithData never reads `kSecAttrKeySizeInBits`, and callers
    /// such as SwiftyRSA pass the data's length in bits there.
    init(externalRepresentation bytes: Data, family: Family, isPrivate: Bool) throws(KeyFailure) {
        switch family {
        case .ellipticCurve:
            guard let curve = EllipticCurve.allCases.first(where: { curve in
                let point = 1 + 2 * curve.coordinateByteCount
                return bytes.count == (isPrivate ? point + curve.coordinateByteCount : point)
            }), bytes.first == 0x04 else {
                throw KeyFailure(.param, isPrivate ? "EC private key creation from data failed"
                                                   : "EC public key creation from data failed")
            }
            let pointLength = 1 + 2 * curve.coordinateByteCount
            let point = Data(bytes.prefix(pointLength))
            guard let publicKey = EllipticCurvePublicKey(x963Representation: point, curve: curve) else {
                throw KeyFailure(.param, "EC key data is not a point of the curve")
            }
            guard isPrivate else {
                self = .ellipticCurvePublic(publicKey)
                return
            }
            var scalar = Data(bytes.suffix(curve.coordinateByteCount))
            defer { scalar.resetBytes(in: 0..<scalar.count) }
            guard let privateKey = EllipticCurvePrivateKey(scalar: scalar, curve: curve) else {
                throw KeyFailure(.param, "EC private key creation from data failed")
            }
            // The point must be the scalar's: otherwise signatures would not verify with the
            // public key the caller gave.
            guard privateKey.publicKey.x963Representation == point else {
                throw KeyFailure(.param, "EC private key data holds a public key that is not its own")
            }
            self = .ellipticCurvePrivate(privateKey)
        case .rsa:
            // Keys of 512 bits or more, as Apple reads them: PKCS #1, or the PKCS #8 and
            // SubjectPublicKeyInfo envelopes other tools write around it.
            if isPrivate {
                guard let key = RSAPrivateKey(derRepresentation: bytes) else {
                    throw KeyFailure(.param, "RSA private key creation from data failed")
                }
                self = .rsaPrivate(key)
            } else {
                guard let key = RSAPublicKey(derRepresentation: bytes) else {
                    throw KeyFailure(.param, "RSA public key creation from data failed")
                }
                self = .rsaPublic(key)
            }
        }
    }
}
