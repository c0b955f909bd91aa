import Foundation

/// What a ``SecKeyAlgorithm`` asks for, read from its identifier: the one place that knows
/// which identifiers this module implements.
enum KeyAlgorithmScheme: Sendable {
    /// Whether the input is the message (hashed here) or a digest the caller computed.
    enum Input: Sendable {
        case message(DigestAlgorithm)
        /// A digest of this algorithm's length; nil for algorithms that take any length.
        case digest(DigestAlgorithm?)
    }

    /// ECDSA signature encodings.
    enum SignatureFormat: Sendable {
        /// DER `ECDSA-Sig-Value` (ANSI X9.62).
        case x962
        /// `r ‖ s`, each of the curve's size (RFC 4754).
        case rfc4754
    }

    /// RSA signature paddings.
    enum RSASignaturePadding: Sendable {
        /// No padding: the raw private operation.
        case raw
        /// EMSA-PKCS1-v1_5; with `DigestInfo` unless the input is a digest of no named algorithm.
        case pkcs1v15
        /// EMSA-PSS with MGF1 of the same hash and a salt as long as the digest.
        case pss
    }

    /// RSA encryption paddings.
    enum RSAEncryptionPadding: Sendable {
        case raw
        case pkcs1
        case oaep(DigestAlgorithm)
    }

    case ecdsa(Input, SignatureFormat)
    case rsaSignature(Input, RSASignaturePadding)
    case rsaEncryption(RSAEncryptionPadding)
    /// Apple's ECIES: ``EllipticCurveIntegratedEncryption`` knows the variants.
    case ellipticCurveEncryption
    /// ECDH, raw or through an X9.63 KDF: ``KeyExchange`` knows the variants.
    case keyExchange

    /// The scheme of an algorithm this module knows; nil for any other (OAEP with AES-GCM,
    /// the SHA-224 variants before SHA-224 existed, unknown identifiers).
    init?(_ algorithm: SecKeyAlgorithm) {
        if let scheme = Self.table[algorithm.identifier] {
            self = scheme
        } else if EllipticCurveIntegratedEncryption.supports(algorithm) {
            self = .ellipticCurveEncryption
        } else if KeyExchange.supports(algorithm) {
            self = .keyExchange
        } else {
            return nil
        }
    }

    /// The hash function the scheme needs, if any.
    var digestAlgorithm: DigestAlgorithm? {
        switch self {
        case .ecdsa(let input, _), .rsaSignature(let input, _):
            switch input {
            case .message(let digest): digest
            case .digest(let digest): digest
            }
        case .rsaEncryption(.oaep(let digest)): digest
        case .rsaEncryption, .ellipticCurveEncryption, .keyExchange: nil
        }
    }

    /// Every identifier this module implements, with its scheme.
    private static let table: [String: KeyAlgorithmScheme] = {
        var table: [String: KeyAlgorithmScheme] = [
            "algid:sign:ECDSA:RFC4754": .ecdsa(.digest(nil), .rfc4754),
            "algid:sign:ECDSA:digest-RFC4754": .ecdsa(.digest(nil), .rfc4754),
            "algid:sign:ECDSA:digest-X962": .ecdsa(.digest(nil), .x962),
            "algid:sign:RSA:raw": .rsaSignature(.digest(nil), .raw),
            "algid:sign:RSA:digest-PKCS1v15": .rsaSignature(.digest(nil), .pkcs1v15),
            "algid:encrypt:RSA:raw": .rsaEncryption(.raw),
            "algid:encrypt:RSA:PKCS1": .rsaEncryption(.pkcs1),
        ]
        for digest in DigestAlgorithm.allCases {
            let name = digest.name
            // Apple's SHA-224 PSS identifiers say 24, not 28.
            let salt = digest == .sha224 ? 24 : digest.byteCount
            for (format, formatName) in [(SignatureFormat.x962, "X962"), (.rfc4754, "RFC4754")] {
                table["algid:sign:ECDSA:digest-\(formatName):\(name)"] = .ecdsa(.digest(digest), format)
                table["algid:sign:ECDSA:message-\(formatName):\(name)"] = .ecdsa(.message(digest), format)
            }
            table["algid:sign:RSA:digest-PKCS1v15:\(name)"] = .rsaSignature(.digest(digest), .pkcs1v15)
            table["algid:sign:RSA:message-PKCS1v15:\(name)"] = .rsaSignature(.message(digest), .pkcs1v15)
            table["algid:sign:RSA:digest-PSS:\(name):\(name):\(salt)"] = .rsaSignature(.digest(digest), .pss)
            table["algid:sign:RSA:message-PSS:\(name):\(name):\(salt)"] = .rsaSignature(.message(digest), .pss)
            table["algid:encrypt:RSA:OAEP:\(name)"] = .rsaEncryption(.oaep(digest))
        }
        return table
    }()
}
