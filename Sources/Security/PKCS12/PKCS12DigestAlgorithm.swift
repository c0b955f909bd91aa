internal import Crypto
import SwiftASN1

/// The hash of a PKCS#12 MAC and of its KDF: SHA-1, SHA-224 (the module's own, as
/// swift-crypto has none), SHA-256, SHA-384 or SHA-512.
enum PKCS12DigestAlgorithm: Sendable {
    case sha1, sha224, sha256, sha384, sha512

    init(identifier: ASN1ObjectIdentifier) throws(PKCS12Failure) {
        switch identifier {
        case PKCS12ObjectIdentifiers.sha1: self = .sha1
        case PKCS12ObjectIdentifiers.sha256: self = .sha256
        case PKCS12ObjectIdentifiers.sha384: self = .sha384
        case PKCS12ObjectIdentifiers.sha512: self = .sha512
        case PKCS12ObjectIdentifiers.pbmac1:
            throw .unsupported("a MAC by PBMAC1 (RFC 9579); files with the classic PKCS#12 MAC are read")
        case PKCS12ObjectIdentifiers.sha224: self = .sha224
        default: throw .unsupported("a MAC with the digest algorithm \(identifier)")
        }
    }

    var identifier: ASN1ObjectIdentifier {
        switch self {
        case .sha1: PKCS12ObjectIdentifiers.sha1
        case .sha224: PKCS12ObjectIdentifiers.sha224
        case .sha256: PKCS12ObjectIdentifiers.sha256
        case .sha384: PKCS12ObjectIdentifiers.sha384
        case .sha512: PKCS12ObjectIdentifiers.sha512
        }
    }

    /// The HMAC of `message` under the PKCS#12 MAC key (KDF ID 3, as long as the digest)
    /// derived from the passphrase's BMPString, `salt` and `iterations`.
    func mac(of message: [UInt8], passphrase: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        switch self {
        case .sha1: Self.mac(Insecure.SHA1.self, message, passphrase, salt, iterations)
        case .sha224: Self.mac(SHA224.self, message, passphrase, salt, iterations)
        case .sha256: Self.mac(SHA256.self, message, passphrase, salt, iterations)
        case .sha384: Self.mac(SHA384.self, message, passphrase, salt, iterations)
        case .sha512: Self.mac(SHA512.self, message, passphrase, salt, iterations)
        }
    }

    private static func mac<Hash: HashFunction>(_ hash: Hash.Type, _ message: [UInt8], _ passphrase: [UInt8],
                                                _ salt: [UInt8], _ iterations: Int) -> [UInt8] {
        let key = PKCS12KeyDerivation.derive(hash, passphrase: passphrase, salt: salt, iterations: iterations,
                                             purpose: .macKey, count: Hash.Digest.byteCount)
        return Array(HMAC<Hash>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }
}
