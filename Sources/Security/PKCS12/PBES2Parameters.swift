internal import Crypto
internal import CryptoExtras
import Foundation
internal import LegacyCiphers
import SwiftASN1
@_implementationOnly import KeychainCore

/// PBES2-params with its PBKDF2-params (RFC 8018 appendix A.2 and A.4): the key derivation
/// (salt, iterations, optional key length, PRF) and the cipher with its IV.
struct PBES2Parameters: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    /// The PRFs swift-crypto's PBKDF2 offers.
    enum PseudorandomFunction {
        case sha1, sha224, sha256, sha384, sha512

        init(_ algorithm: PKCS12AlgorithmIdentifier) throws {
            typealias OID = PKCS12ObjectIdentifiers
            switch algorithm.algorithm {
            case OID.hmacWithSHA1: self = .sha1
            case OID.hmacWithSHA224: self = .sha224
            case OID.hmacWithSHA256: self = .sha256
            case OID.hmacWithSHA384: self = .sha384
            case OID.hmacWithSHA512: self = .sha512
            default: throw PKCS12Failure.unsupported("PBKDF2 with the PRF \(algorithm.algorithm)")
            }
        }

        var identifier: ASN1ObjectIdentifier {
            typealias OID = PKCS12ObjectIdentifiers
            switch self {
            case .sha1: return OID.hmacWithSHA1
            case .sha224: return OID.hmacWithSHA224
            case .sha256: return OID.hmacWithSHA256
            case .sha384: return OID.hmacWithSHA384
            case .sha512: return OID.hmacWithSHA512
            }
        }

        var hashFunction: KDF.Insecure.PBKDF2.HashFunction {
            switch self {
            case .sha1: .insecureSHA1
            case .sha224: .insecureSHA224
            case .sha256: .sha256
            case .sha384: .sha384
            case .sha512: .sha512
            }
        }
    }

    /// The ciphers of PBES2 read: AES in CBC mode (swift-crypto) and DES-EDE3-CBC (legacy).
    enum Cipher {
        case aes128CBC, aes192CBC, aes256CBC, desEDE3CBC

        init(_ identifier: ASN1ObjectIdentifier) throws {
            typealias OID = PKCS12ObjectIdentifiers
            switch identifier {
            case OID.aes128CBC: self = .aes128CBC
            case OID.aes192CBC: self = .aes192CBC
            case OID.aes256CBC: self = .aes256CBC
            case OID.desEDE3CBC: self = .desEDE3CBC
            default: throw PKCS12Failure.unsupported("PBES2 with the cipher \(identifier)")
            }
        }

        var identifier: ASN1ObjectIdentifier {
            typealias OID = PKCS12ObjectIdentifiers
            switch self {
            case .aes128CBC: return OID.aes128CBC
            case .aes192CBC: return OID.aes192CBC
            case .aes256CBC: return OID.aes256CBC
            case .desEDE3CBC: return OID.desEDE3CBC
            }
        }

        var keyByteCount: Int {
            switch self {
            case .aes128CBC: 16
            case .aes192CBC, .desEDE3CBC: 24
            case .aes256CBC: 32
            }
        }

        var blockByteCount: Int { self == .desEDE3CBC ? 8 : 16 }
    }

    var salt: [UInt8]
    var iterations: Int
    var keyLength: Int?
    var pseudorandomFunction: PseudorandomFunction
    var cipher: Cipher
    var iv: [UInt8]

    init(salt: [UInt8], iterations: Int, keyLength: Int?, pseudorandomFunction: PseudorandomFunction, cipher: Cipher,
         iv: [UInt8]) {
        self.salt = salt
        self.iterations = iterations
        self.keyLength = keyLength
        self.pseudorandomFunction = pseudorandomFunction
        self.cipher = cipher
        self.iv = iv
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let derivation = try PKCS12AlgorithmIdentifier(derEncoded: &nodes)
            let scheme = try PKCS12AlgorithmIdentifier(derEncoded: &nodes)
            guard derivation.algorithm == PKCS12ObjectIdentifiers.pbkdf2 else {
                throw PKCS12Failure.unsupported("PBES2 with the key derivation \(derivation.algorithm)")
            }
            guard let derivationParameters = derivation.parameters else { throw PKCS12Failure.malformed("PBKDF2 has no parameters") }
            let cipher = try Cipher(scheme.algorithm)
            guard let ivParameter = scheme.parameters else { throw PKCS12Failure.malformed("the PBES2 cipher has no IV") }
            let iv = Array(try ASN1OctetString(asn1Any: ivParameter).bytes)
            guard iv.count == cipher.blockByteCount else { throw PKCS12Failure.malformed("the PBES2 IV is not one block") }
            let node = try DER.parse(PKCS12DER.bytes(of: derivationParameters, "the PBKDF2 parameters"))
            return try DER.sequence(node, identifier: .sequence) { nodes in
                guard let saltNode = nodes.next(), saltNode.identifier == .octetString else {
                    throw PKCS12Failure.unsupported("PBKDF2 with a salt that is not an OCTET STRING (otherSource)")
                }
                let salt = Array(try ASN1OctetString(derEncoded: saltNode).bytes)
                let iterations = try Int(derEncoded: &nodes)
                var keyLength: Int?
                var prf = PseudorandomFunction.sha1
                while let next = nodes.next() {
                    if next.identifier == .integer, keyLength == nil {
                        keyLength = try Int(derEncoded: next)
                    } else {
                        prf = try PseudorandomFunction(PKCS12AlgorithmIdentifier(derEncoded: next))
                    }
                }
                if let keyLength, keyLength != cipher.keyByteCount {
                    throw PKCS12Failure.malformed("PBKDF2's key length \(keyLength) does not fit the cipher")
                }
                return PBES2Parameters(salt: salt, iterations: iterations, keyLength: keyLength,
                                       pseudorandomFunction: prf, cipher: cipher, iv: iv)
            }
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(PKCS12ObjectIdentifiers.pbkdf2)
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(ASN1OctetString(contentBytes: salt[...]))
                    try coder.serialize(iterations)
                    if let keyLength { try coder.serialize(keyLength) }
                    // hmacWithSHA1 is the DEFAULT and so left out, as DER requires.
                    if pseudorandomFunction != .sha1 {
                        try coder.serialize(PKCS12AlgorithmIdentifier(algorithm: pseudorandomFunction.identifier,
                                                                      parameters: ASN1Any(erasing: ASN1Null())))
                    }
                }
            }
            try coder.serialize(PKCS12AlgorithmIdentifier(algorithm: cipher.identifier,
                                                          parameters: ASN1Any(erasing: ASN1OctetString(contentBytes: iv[...]))))
        }
    }

    private func key(_ passphrase: [UInt8]) throws(PKCS12Failure) -> [UInt8] {
        do {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: passphrase, salt: salt, using: pseudorandomFunction.hashFunction,
                outputByteCount: cipher.keyByteCount, unsafeUncheckedRounds: iterations)
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw .unsupported("PBKDF2 with these parameters")
        }
    }

    /// The plaintext, or nil when its padding is not well formed (a wrong passphrase).
    func decrypt(_ ciphertext: [UInt8], passphrase: [UInt8]) throws(PKCS12Failure) -> [UInt8]? {
        let block = cipher.blockByteCount
        guard !ciphertext.isEmpty, ciphertext.count % block == 0 else {
            throw .malformed("PBES2 ciphertext is not a whole number of cipher blocks")
        }
        var key = try key(passphrase)
        var padded: [UInt8]?
        defer {
            key.zeroize()
            padded?.zeroize()
        }
        if cipher == .desEDE3CBC {
            guard let tripleDES = TripleDES(key: key) else { throw .malformed("a Triple DES key of the wrong size") }
            padded = LegacyCBC.decrypt(ciphertext, iv: iv, block: tripleDES.decrypt(block:))
        } else {
            padded = try? Array(AES._CBC.decrypt(ciphertext, using: SymmetricKey(data: key),
                                                 iv: AES._CBC.IV(ivBytes: iv), noPadding: true))
        }
        return padded.flatMap { CBCPadding.remove(from: $0, blockByteCount: block) }
    }

    /// Encryption with AES (the writer's only cipher).
    func encrypt(_ plaintext: [UInt8], passphrase: [UInt8]) throws(PKCS12Failure) -> [UInt8] {
        guard cipher != .desEDE3CBC else { throw .cannotWrite("Triple DES is only ever read") }
        let key = try key(passphrase)
        do {
            return Array(try AES._CBC.encrypt(CBCPadding.add(to: plaintext, blockByteCount: 16),
                                              using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: iv), noPadding: true))
        } catch {
            throw .cannotWrite("AES-CBC encryption failed")
        }
    }
}
