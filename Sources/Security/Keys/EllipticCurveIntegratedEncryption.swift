internal import Crypto
import Foundation

/// ECIES as Apple's `eciesEncryption...AESGCM` algorithms do it, byte for byte:
///
/// - a fresh ephemeral key pair on the recipient's curve for every message;
/// - the ECDH shared secret of the ephemeral private key and the recipient's public key;
/// - the X9.63 KDF over the algorithm's hash, with the ephemeral public key (X9.63
///   uncompressed) as shared info, giving the AES key: 16 bytes for curves of up to 256 bits,
///   32 above; the VariableIV algorithms derive 16 more bytes, the GCM IV, right after the key,
///   the others use an all-zero 16-byte IV;
/// - AES-GCM without associated data and with a 16-byte tag.
///
/// The ciphertext is `ephemeral public key ‖ AES-GCM ciphertext ‖ tag`. Every failure to
/// decrypt (too short, not a point of the curve, a wrong key, a changed byte) is errSecParam,
/// as Apple's, and never yields plaintext.
enum EllipticCurveIntegratedEncryption {
    /// What an algorithm's name fixes: the KDF's hash and where the IV comes from.
    private struct Scheme {
        let digest: KeyDerivationDigest
        let derivesIV: Bool
    }

    private static let tagByteCount = 16
    private static let ivByteCount = 16

    /// Every ECIES algorithm Apple declares. Standard and Cofactor name the same computation
    /// on the NIST curves (cofactor 1).
    private static let schemes: [SecKeyAlgorithm: Scheme] = [
        .eciesEncryptionStandardX963SHA1AESGCM: Scheme(digest: .sha1, derivesIV: false),
        .eciesEncryptionStandardX963SHA224AESGCM: Scheme(digest: .sha224, derivesIV: false),
        .eciesEncryptionStandardX963SHA256AESGCM: Scheme(digest: .sha256, derivesIV: false),
        .eciesEncryptionStandardX963SHA384AESGCM: Scheme(digest: .sha384, derivesIV: false),
        .eciesEncryptionStandardX963SHA512AESGCM: Scheme(digest: .sha512, derivesIV: false),
        .eciesEncryptionCofactorX963SHA1AESGCM: Scheme(digest: .sha1, derivesIV: false),
        .eciesEncryptionCofactorX963SHA224AESGCM: Scheme(digest: .sha224, derivesIV: false),
        .eciesEncryptionCofactorX963SHA256AESGCM: Scheme(digest: .sha256, derivesIV: false),
        .eciesEncryptionCofactorX963SHA384AESGCM: Scheme(digest: .sha384, derivesIV: false),
        .eciesEncryptionCofactorX963SHA512AESGCM: Scheme(digest: .sha512, derivesIV: false),
        .eciesEncryptionStandardVariableIVX963SHA224AESGCM: Scheme(digest: .sha224, derivesIV: true),
        .eciesEncryptionStandardVariableIVX963SHA256AESGCM: Scheme(digest: .sha256, derivesIV: true),
        .eciesEncryptionStandardVariableIVX963SHA384AESGCM: Scheme(digest: .sha384, derivesIV: true),
        .eciesEncryptionStandardVariableIVX963SHA512AESGCM: Scheme(digest: .sha512, derivesIV: true),
        .eciesEncryptionCofactorVariableIVX963SHA224AESGCM: Scheme(digest: .sha224, derivesIV: true),
        .eciesEncryptionCofactorVariableIVX963SHA256AESGCM: Scheme(digest: .sha256, derivesIV: true),
        .eciesEncryptionCofactorVariableIVX963SHA384AESGCM: Scheme(digest: .sha384, derivesIV: true),
        .eciesEncryptionCofactorVariableIVX963SHA512AESGCM: Scheme(digest: .sha512, derivesIV: true),
    ]

    /// Whether the algorithm is an ECIES algorithm this module performs.
    static func supports(_ algorithm: SecKeyAlgorithm) -> Bool {
        schemes[algorithm] != nil
    }

    /// Encrypts for the holder of the private half of `recipient`.
    static func encrypt(_ plaintext: Data, for recipient: EllipticCurvePublicKey,
                        algorithm: SecKeyAlgorithm) throws(KeyFailure) -> Data {
        let scheme = try scheme(of: algorithm)
        let ephemeral = EllipticCurvePrivateKey(randomOn: recipient.curve)
        let ephemeralPoint = ephemeral.publicKey.x963Representation
        let secret = try ephemeral.sharedSecret(with: recipient)
        let (key, nonce) = try symmetricKey(from: secret, ephemeralPoint: ephemeralPoint, curve: recipient.curve, scheme: scheme)
        do {
            let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce)
            return ephemeralPoint + box.ciphertext + box.tag
        } catch {
            throw KeyFailure(.param, "ECIES: failed to AES-GCM encrypt the data")
        }
    }

    /// Decrypts what ``encrypt(_:for:algorithm:)``, or Apple's `SecKeyCreateEncryptedData`,
    /// made for the public half of `recipient`.
    static func decrypt(_ ciphertext: Data, with recipient: EllipticCurvePrivateKey,
                        algorithm: SecKeyAlgorithm) throws(KeyFailure) -> Data {
        let scheme = try scheme(of: algorithm)
        let curve = recipient.curve
        let pointByteCount = 1 + 2 * curve.coordinateByteCount
        guard ciphertext.count >= pointByteCount else {
            throw KeyFailure(.param, "ECIES: the input is too short to hold an ephemeral public key")
        }
        let ephemeralPoint = Data(ciphertext.prefix(pointByteCount))
        guard let ephemeral = EllipticCurvePublicKey(x963Representation: ephemeralPoint, curve: curve) else {
            throw KeyFailure(.param, "ECIES: the ephemeral public key is not a point of the key's curve")
        }
        let sealed = ciphertext.dropFirst(pointByteCount)
        guard sealed.count >= tagByteCount else {
            throw KeyFailure(.param, "ECIES: the input is too short to hold an authentication tag")
        }
        let secret = try recipient.sharedSecret(with: ephemeral)
        let (key, nonce) = try symmetricKey(from: secret, ephemeralPoint: ephemeralPoint, curve: curve, scheme: scheme)
        do {
            let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: sealed.dropLast(tagByteCount),
                                            tag: sealed.suffix(tagByteCount))
            return try AES.GCM.open(box, using: key)
        } catch {
            throw KeyFailure(.param, "ECIES: failed to AES-GCM decrypt the data")
        }
    }

    private static func scheme(of algorithm: SecKeyAlgorithm) throws(KeyFailure) -> Scheme {
        guard let scheme = schemes[algorithm] else {
            throw KeyFailure(.param, "\(algorithm.identifier): algorithm not supported by the key")
        }
        return scheme
    }

    /// The AES key and GCM nonce from the shared secret, as Apple derives them.
    private static func symmetricKey(from secret: SharedSecret, ephemeralPoint: Data, curve: EllipticCurve,
                                     scheme: Scheme) throws(KeyFailure) -> (SymmetricKey, AES.GCM.Nonce) {
        let keyByteCount = curve.bitCount > 256 ? 32 : 16
        let derived = try scheme.digest.derive(from: secret, sharedInfo: ephemeralPoint,
                                               byteCount: keyByteCount + (scheme.derivesIV ? ivByteCount : 0))
        let (key, iv) = derived.withUnsafeBytes { bytes in
            (SymmetricKey(data: UnsafeRawBufferPointer(rebasing: bytes.prefix(keyByteCount))),
             // The IV need not stay secret (GCM nonces travel in the clear); the key does, in SymmetricKey.
             scheme.derivesIV ? Data(bytes.suffix(ivByteCount)) : Data(count: ivByteCount))
        }
        do {
            return (key, try AES.GCM.Nonce(data: iv))
        } catch {
            throw KeyFailure(.param, "ECIES: the IV is not a valid AES-GCM nonce")
        }
    }
}
