internal import Crypto
internal import CryptoExtras
import Foundation
internal import LegacyCiphers
import SwiftASN1
@_implementationOnly import KeychainCore

/// A password-based encryption scheme of PKCS#12 content or keys, read from its
/// AlgorithmIdentifier: PBES2 with PBKDF2 (RFC 8018 section 6.2), or one of PKCS#12's own
/// schemes over its KDF with SHA-1 (RFC 7292 appendix C).
enum PKCS12Encryption {
    case pbes2(PBES2Parameters)
    case pkcs12(LegacyScheme, PKCS12PBEParameters)

    /// The PKCS#12 schemes read: Triple DES and RC2 in CBC mode (RC4 is reported unsupported).
    enum LegacyScheme {
        case tripleDES3Key, tripleDES2Key, rc2With128BitKey, rc2With40BitKey

        var keyByteCount: Int {
            switch self {
            case .tripleDES3Key: 24
            case .tripleDES2Key, .rc2With128BitKey: 16
            case .rc2With40BitKey: 5
            }
        }
    }

    init(_ algorithm: PKCS12AlgorithmIdentifier) throws(PKCS12Failure) {
        typealias OID = PKCS12ObjectIdentifiers
        let legacy: LegacyScheme
        switch algorithm.algorithm {
        case OID.pbes2:
            self = .pbes2(try algorithm.parameters(as: PBES2Parameters.self, "the PBES2 parameters"))
            return
        case OID.pbeWithSHAAnd3KeyTripleDESCBC: legacy = .tripleDES3Key
        case OID.pbeWithSHAAnd2KeyTripleDESCBC: legacy = .tripleDES2Key
        case OID.pbeWithSHAAnd128BitRC2CBC: legacy = .rc2With128BitKey
        case OID.pbeWithSHAAnd40BitRC2CBC: legacy = .rc2With40BitKey
        case OID.pbeWithSHAAnd128BitRC4, OID.pbeWithSHAAnd40BitRC4:
            throw .unsupported("encryption with RC4 (pbeWithSHAAnd128BitRC4, pbeWithSHAAnd40BitRC4)")
        default:
            throw .unsupported("the encryption algorithm \(algorithm.algorithm)")
        }
        self = .pkcs12(legacy, try algorithm.parameters(as: PKCS12PBEParameters.self, "the PKCS#12 PBE parameters"))
    }

    /// `ciphertext` decrypted under `passphrase`, or nil when the result is not well padded
    /// (almost always a wrong passphrase). The derivation's iterations are charged to
    /// `budget` first.
    func decrypt(_ ciphertext: [UInt8], passphrase: PKCS12Passphrase, budget: inout PKCS12WorkBudget,
                 _ what: String) throws(PKCS12Failure) -> [UInt8]? {
        switch self {
        case .pbes2(let parameters):
            try budget.spend(iterations: parameters.iterations, for: what)
            return try parameters.decrypt(ciphertext, passphrase: passphrase.utf8Bytes)
        case .pkcs12(let scheme, let parameters):
            // The KDF runs its iterations once per SHA-1 block of output: the key's blocks, then
            // one for the IV. Each is charged, so the bound counts the work really done.
            let keyBlocks = (scheme.keyByteCount + Insecure.SHA1.Digest.byteCount - 1) / Insecure.SHA1.Digest.byteCount
            for _ in 0..<(keyBlocks + 1) {
                try budget.spend(iterations: parameters.iterations, for: what)
            }
            func derive(_ purpose: PKCS12KeyDerivation.Purpose, _ count: Int) -> [UInt8] {
                PKCS12KeyDerivation.derive(Insecure.SHA1.self, passphrase: passphrase.bmpBytes, salt: parameters.salt,
                                           iterations: parameters.iterations, purpose: purpose, count: count)
            }
            guard !ciphertext.isEmpty, ciphertext.count % 8 == 0 else {
                throw .malformed("\(what) is not a whole number of cipher blocks")
            }
            var key = derive(.encryptionKey, scheme.keyByteCount)
            let iv = derive(.initializationVector, 8)
            var padded: [UInt8]?
            defer {
                key.zeroize()
                padded?.zeroize()
            }
            switch scheme {
            case .tripleDES3Key, .tripleDES2Key:
                guard let cipher = TripleDES(key: key) else { throw .malformed("\(what) has a Triple DES key of the wrong size") }
                padded = LegacyCBC.decrypt(ciphertext, iv: iv, block: cipher.decrypt(block:))
            case .rc2With128BitKey, .rc2With40BitKey:
                guard let cipher = RC2(key: key, effectiveKeyBits: 8 * key.count) else {
                    throw .malformed("\(what) has an RC2 key of the wrong size")
                }
                padded = LegacyCBC.decrypt(ciphertext, iv: iv, block: cipher.decrypt(block:))
            }
            return padded.flatMap { CBCPadding.remove(from: $0, blockByteCount: 8) }
        }
    }

    /// `plaintext` encrypted the way OpenSSL 3 does by default: PBES2, PBKDF2 with
    /// HMAC-SHA256, AES-256-CBC, a random salt and IV; with the AlgorithmIdentifier to record.
    static func encryptPBES2(_ plaintext: [UInt8], passphrase: PKCS12Passphrase,
                             iterations: Int) throws(PKCS12Failure) -> (PKCS12AlgorithmIdentifier, [UInt8]) {
        let parameters = PBES2Parameters(salt: PKCS12Random.bytes(16), iterations: iterations, keyLength: nil,
                                         pseudorandomFunction: .sha256, cipher: .aes256CBC, iv: PKCS12Random.bytes(16))
        let ciphertext = try parameters.encrypt(plaintext, passphrase: passphrase.utf8Bytes)
        let algorithm = PKCS12AlgorithmIdentifier(
            algorithm: PKCS12ObjectIdentifiers.pbes2,
            parameters: try PKCS12DER.decoding("PBES2 parameters") { try ASN1Any(erasing: parameters) })
        return (algorithm, ciphertext)
    }
}

/// Salts and IVs, from the system's generator.
enum PKCS12Random {
    static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

/// pkcs-12PbeParams (RFC 7292 appendix C): salt and iteration count.
struct PKCS12PBEParameters: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    var salt: [UInt8]
    var iterations: Int

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        (salt, iterations) = try DER.sequence(rootNode, identifier: identifier) { nodes in
            (Array(try ASN1OctetString(derEncoded: &nodes).bytes), try Int(derEncoded: &nodes))
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(ASN1OctetString(contentBytes: salt[...]))
            try coder.serialize(iterations)
        }
    }
}
