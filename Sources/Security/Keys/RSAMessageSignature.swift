internal import Crypto
internal import CryptoExtras
import Foundation

/// The RSA signatures BoringSSL makes and checks whole, through CryptoExtras: PKCS #1 v1.5
/// and PSS (salt as long as the digest, as Apple's) of a message hashed with SHA-1, SHA-256,
/// SHA-384 or SHA-512, the digest types CryptoExtras accepts.
///
/// The common algorithms take this path for speed: the public operation of
/// ``RSARawOperation`` (BigInt) is about a hundred times slower than BoringSSL's, and the
/// private one parses the key again each time. What CryptoExtras cannot do (caller-given
/// digests, SHA-224, raw signatures) goes through ``RSAPadding`` and ``RSARawOperation``;
/// the tests check both paths against openssl.
enum RSAMessageSignature {
    /// The signature, or nil when the hash is not one CryptoExtras takes.
    static func sign(_ message: Data, hash: DigestAlgorithm, padding: KeyAlgorithmScheme.RSASignaturePadding,
                     with key: _RSA.Signing.PrivateKey) throws(KeyFailure) -> Data? {
        guard let digest = digest(of: message, hash), let padding = boringSSLPadding(padding) else { return nil }
        do {
            return try key.signature(for: digest, padding: padding).rawRepresentation
        } catch {
            throw KeyFailure(.param, "the key is too small for this RSA signature algorithm")
        }
    }

    /// Whether the signature is valid, or nil when the hash is not one CryptoExtras takes.
    static func isValid(_ signature: Data, of message: Data, hash: DigestAlgorithm,
                        padding: KeyAlgorithmScheme.RSASignaturePadding, for key: _RSA.Signing.PublicKey) -> Bool? {
        guard let digest = digest(of: message, hash), let padding = boringSSLPadding(padding) else { return nil }
        return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: digest, padding: padding)
    }

    private static func digest(of message: Data, _ hash: DigestAlgorithm) -> (any Digest)? {
        switch hash {
        case .sha1: Insecure.SHA1.hash(data: message)
        case .sha256: SHA256.hash(data: message)
        case .sha384: SHA384.hash(data: message)
        case .sha512: SHA512.hash(data: message)
        case .sha224: nil
        }
    }

    private static func boringSSLPadding(_ padding: KeyAlgorithmScheme.RSASignaturePadding) -> _RSA.Signing.Padding? {
        switch padding {
        case .pkcs1v15: .insecurePKCS1v1_5
        case .pss: .PSS
        case .raw: nil
        }
    }
}
