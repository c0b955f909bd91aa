import Crypto
import CryptoExtras
import Foundation
import Security
import Testing
import TestSupport

/// SecKey's ECDSA and elliptic-curve key functions, checked against swift-crypto used directly
/// and the `openssl` command: signatures made here verify there and the reverse, the
/// external representation is what openssl prints for the key, and bad input gets Apple's
/// statuses.
@Suite("SecKey elliptic-curve keys")
struct SecKeyEllipticCurveTests {
    static let message = Data("the quick brown fox jumps over the lazy dog".utf8)

    /// The curves with openssl's name and the hash the curve's message algorithm pairs with.
    static let curves: [(bits: Int, openssl: String)] = [(256, "prime256v1"), (384, "secp384r1"), (521, "secp521r1")]

    /// A key made by openssl, as the SecKey of its X9.63 representation (swift-crypto reads
    /// the PEM) and the PEM files of both halves.
    private static func opensslKey(bits: Int, curveName: String, in folder: OpenSSLFolder) throws -> SecKey {
        try folder.require(["ecparam", "-genkey", "-name", curveName, "-noout", "-out", folder.path("key.pem")])
        try folder.require(["ec", "-in", folder.path("key.pem"), "-pubout", "-out", folder.path("pub.pem")])
        let pem = try String(contentsOfFile: folder.path("key.pem"), encoding: .utf8)
        let x963: Data
        switch bits {
        case 256: x963 = try P256.Signing.PrivateKey(pemRepresentation: pem).x963Representation
        case 384: x963 = try P384.Signing.PrivateKey(pemRepresentation: pem).x963Representation
        default: x963 = try P521.Signing.PrivateKey(pemRepresentation: pem).x963Representation
        }
        return try SecKeyCalls.key(x963, type: kSecAttrKeyTypeECSECPrimeRandom, private: true)
    }

    /// The PEM of a public key's SubjectPublicKeyInfo, by swift-crypto from the X9.63 point.
    private static func publicPEM(_ x963: Data, bits: Int) throws -> String {
        switch bits {
        case 256: try P256.Signing.PublicKey(x963Representation: x963).pemRepresentation
        case 384: try P384.Signing.PublicKey(x963Representation: x963).pemRepresentation
        default: try P521.Signing.PublicKey(x963Representation: x963).pemRepresentation
        }
    }

    // Rule: X9.62 signatures of SecKeyCreateRandomKey's keys are standard ECDSA: swift-crypto
    // and `openssl dgst -verify` accept them, for every curve and hash.
    @Test("ECDSA X9.62 message signatures verify with swift-crypto and openssl", arguments: [256, 384, 521])
    func messageSignaturesVerifyElsewhere(bits: Int) throws {
        let folder = try OpenSSLFolder()
        let key = try SecKeyCalls.randomKey(type: kSecAttrKeyTypeECSECPrimeRandom, bits: bits)
        let publicX963 = try SecKeyCalls.external(SecKeyCalls.publicKey(key))
        try Self.publicPEM(publicX963, bits: bits).write(toFile: folder.path("pub.pem"), atomically: true, encoding: .utf8)
        try folder.write(Self.message, "message")
        let cases: [(SecKeyAlgorithm, String)] = [(.ecdsaSignatureMessageX962SHA1, "sha1"), (.ecdsaSignatureMessageX962SHA224, "sha224"),
                                                  (.ecdsaSignatureMessageX962SHA256, "sha256"),
                                                  (.ecdsaSignatureMessageX962SHA384, "sha384"), (.ecdsaSignatureMessageX962SHA512, "sha512")]
        for (algorithm, digest) in cases {
            let signature = try SecKeyCalls.sign(key, algorithm, Self.message)
            try folder.write(signature, "signature")
            let result = try folder.openssl(["dgst", "-\(digest)", "-verify", folder.path("pub.pem"),
                                             "-signature", folder.path("signature"), folder.path("message")])
            #expect(result.status == 0 && result.output.contains("Verified OK"), "openssl rejected \(digest)")
        }
        // swift-crypto's own pairing of curve and hash.
        let signature = try SecKeyCalls.sign(key, bits == 256 ? .ecdsaSignatureMessageX962SHA256
                                                  : bits == 384 ? .ecdsaSignatureMessageX962SHA384 : .ecdsaSignatureMessageX962SHA512,
                                             Self.message)
        switch bits {
        case 256: #expect(try P256.Signing.PublicKey(x963Representation: publicX963)
            .isValidSignature(.init(derRepresentation: signature), for: Self.message))
        case 384: #expect(try P384.Signing.PublicKey(x963Representation: publicX963)
            .isValidSignature(.init(derRepresentation: signature), for: Self.message))
        default: #expect(try P521.Signing.PublicKey(x963Representation: publicX963)
            .isValidSignature(.init(derRepresentation: signature), for: Self.message))
        }
    }

    // Rule: signatures openssl makes verify with SecKey, and a changed message does not
    // (false, errSecVerifyFailed -67808).
    @Test("openssl's ECDSA signatures verify with SecKey; a changed message fails with errSecVerifyFailed", arguments: curves)
    func opensslSignaturesVerify(curve: (bits: Int, openssl: String)) throws {
        let folder = try OpenSSLFolder()
        let key = try Self.opensslKey(bits: curve.bits, curveName: curve.openssl, in: folder)
        let publicKey = try SecKeyCalls.publicKey(key)
        try folder.write(Self.message, "message")
        try folder.require(["dgst", "-sha384", "-sign", folder.path("key.pem"), "-out", folder.path("signature"), folder.path("message")])
        let signature = try folder.read("signature")
        #expect(SecKeyCalls.verify(publicKey, .ecdsaSignatureMessageX962SHA384, Self.message, signature) == (true, nil))
        // The digest form of the same algorithm takes openssl's digest of the message.
        let digest = Data(SHA384.hash(data: Self.message))
        #expect(SecKeyCalls.verify(publicKey, .ecdsaSignatureDigestX962SHA384, digest, signature) == (true, nil))
        #expect(SecKeyCalls.verify(publicKey, .ecdsaSignatureDigestX962, digest, signature) == (true, nil))
        var changed = Self.message
        changed[0] ^= 1
        #expect(SecKeyCalls.verify(publicKey, .ecdsaSignatureMessageX962SHA384, changed, signature) == (false, -67808))
        #expect(SecKeyCalls.verify(publicKey, .ecdsaSignatureMessageX962SHA384, Self.message, Data([0x30, 0x00])) == (false, -67808))
    }

    // Rule: SecKeyCopyExternalRepresentation is ANSI X9.63, 04 ‖ X ‖ Y ‖ K, the numbers
    // `openssl ec -text` prints for the same key.
    @Test("External representations are the pub and priv openssl prints", arguments: curves)
    func externalRepresentationMatchesOpenSSL(curve: (bits: Int, openssl: String)) throws {
        let folder = try OpenSSLFolder()
        let key = try Self.opensslKey(bits: curve.bits, curveName: curve.openssl, in: folder)
        let text = try folder.require(["ec", "-in", folder.path("key.pem"), "-text", "-noout"])
        func field(_ name: String) -> [UInt8] {
            let lines = text.components(separatedBy: "\n")
            guard let start = lines.firstIndex(where: { $0.hasPrefix(name + ":") }) else { return [] }
            let hex = lines[(start + 1)...].prefix { $0.hasPrefix(" ") }.joined()
                .filter { $0.isHexDigit }
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
                index = next
            }
            return bytes
        }
        let size = (curve.bits + 7) / 8
        let external = [UInt8](try SecKeyCalls.external(key))
        let pub = field("pub")
        #expect(Array(external.prefix(1 + 2 * size)) == pub)
        // openssl may print the scalar with a leading zero byte, or without leading zeros.
        let priv = Array(field("priv").drop { $0 == 0 })
        #expect(Array(external.suffix(size).drop { $0 == 0 }) == priv)
        #expect(try SecKeyCalls.external(SecKeyCalls.publicKey(key)) == Data(pub))
    }

    // Rule: RFC 4754 signatures are r ‖ s, each as long as the curve's size, which
    // swift-crypto's raw representation reads.
    @Test("RFC 4754 signatures are r ‖ s that swift-crypto verifies", arguments: [256, 384, 521])
    func rfc4754Signatures(bits: Int) throws {
        let key = try SecKeyCalls.randomKey(type: kSecAttrKeyTypeECSECPrimeRandom, bits: bits)
        let publicKey = try SecKeyCalls.publicKey(key)
        let publicX963 = try SecKeyCalls.external(publicKey)
        let digest = Data(SHA256.hash(data: Self.message))
        for algorithm in [SecKeyAlgorithm.ecdsaSignatureMessageRFC4754SHA256, .ecdsaSignatureDigestRFC4754SHA256,
                          .ecdsaSignatureDigestRFC4754, .ecdsaSignatureRFC4754] {
            let input = algorithm == .ecdsaSignatureMessageRFC4754SHA256 ? Self.message : digest
            let signature = try SecKeyCalls.sign(key, algorithm, input)
            #expect(signature.count == 2 * ((bits + 7) / 8))
            let valid: Bool
            switch bits {
            case 256: valid = try P256.Signing.PublicKey(x963Representation: publicX963)
                .isValidSignature(.init(rawRepresentation: signature), for: SHA256.hash(data: Self.message))
            case 384: valid = try P384.Signing.PublicKey(x963Representation: publicX963)
                .isValidSignature(.init(rawRepresentation: signature), for: SHA256.hash(data: Self.message))
            default: valid = try P521.Signing.PublicKey(x963Representation: publicX963)
                .isValidSignature(.init(rawRepresentation: signature), for: SHA256.hash(data: Self.message))
            }
            #expect(valid)
            #expect(SecKeyCalls.verify(publicKey, algorithm, input, signature) == (true, nil))
        }
    }

    // Rule (Apple): a digest algorithm given a digest of the wrong length is errSecParam;
    // an algorithm the key cannot run (RSA's, signing with a public key, verifying with a
    // private one, an unknown identifier) is errSecUnimplemented.
    @Test("Wrong digest lengths are errSecParam; algorithms the key cannot run are errSecUnimplemented")
    func badInputStatuses() throws {
        let key = try SecKeyCalls.randomKey(type: kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let publicKey = try SecKeyCalls.publicKey(key)
        #expect(SecKeyCalls.signingStatus(key, .ecdsaSignatureDigestX962SHA256, Data(count: 31)) == -50)
        #expect(SecKeyCalls.signingStatus(key, .ecdsaSignatureDigestX962SHA1, Data(count: 32)) == -50)
        #expect(SecKeyCalls.signingStatus(key, .rsaSignatureMessagePKCS1v15SHA256, Self.message) == -4)
        #expect(SecKeyCalls.signingStatus(publicKey, .ecdsaSignatureMessageX962SHA256, Self.message) == -4)
        #expect(SecKeyCalls.signingStatus(key, SecKeyAlgorithm(rawValue: "algid:sign:ECDSA:nonsense" as CFString), Self.message) == -4)
        let signature = try SecKeyCalls.sign(key, .ecdsaSignatureMessageX962SHA256, Self.message)
        #expect(SecKeyCalls.verify(key, .ecdsaSignatureMessageX962SHA256, Self.message, signature) == (false, -4))
        #expect(SecKeyCalls.encrypt(publicKey, .rsaEncryptionOAEPSHA256, Self.message).1 == -4)
    }

    // Rule: SecKeyIsAlgorithmSupported says what the operations do.
    @Test("SecKeyIsAlgorithmSupported answers per key class and operation")
    func algorithmSupport() throws {
        let key = try SecKeyCalls.randomKey(type: kSecAttrKeyTypeECSECPrimeRandom, bits: 384)
        let publicKey = try SecKeyCalls.publicKey(key)
        #expect(SecKeyIsAlgorithmSupported(key, .sign, .ecdsaSignatureMessageX962SHA256))
        #expect(!SecKeyIsAlgorithmSupported(key, .verify, .ecdsaSignatureMessageX962SHA256))
        #expect(SecKeyIsAlgorithmSupported(publicKey, .verify, .ecdsaSignatureDigestRFC4754SHA512))
        #expect(!SecKeyIsAlgorithmSupported(publicKey, .sign, .ecdsaSignatureDigestRFC4754SHA512))
        #expect(!SecKeyIsAlgorithmSupported(key, .sign, .rsaSignatureMessagePSSSHA256))
        #expect(SecKeyIsAlgorithmSupported(key, .sign, .ecdsaSignatureDigestX962SHA224))
        #expect(SecKeyOperationType.keyExchange.rawValue == 4 && SecKeyOperationType.sign.rawValue == 0)
    }

    // Rule (Apple, SecECKey.c): the block size of an EC key is corecrypto's size of its
    // numbers in 64-bit words: 32, 48 and 72 bytes.
    @Test("Block sizes are Apple's: 32, 48, 72")
    func blockSizes() throws {
        for (bits, size) in [(256, 32), (384, 48), (521, 72)] {
            let key = try SecKeyCalls.randomKey(type: kSecAttrKeyTypeECSECPrimeRandom, bits: bits)
            #expect(SecKeyGetBlockSize(key) == size)
            #expect(SecKeyGetBlockSize(try SecKeyCalls.publicKey(key)) == size)
        }
    }

    // Rule (Apple, SecKeyCopyAttributeDictionaryWithLocalKey): a key's attributes give its
    // class, type, size, the SHA-1 of its public key as application label, the usage flags
    // of its class, and its external representation as value data.
    @Test("SecKeyCopyAttributes reports Apple's attributes")
    func attributes() throws {
        let key = try SecKeyCalls.randomKey(type: kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let publicKey = try SecKeyCalls.publicKey(key)
        let privateAttributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        let publicAttributes = try #require(SecKeyCopyAttributes(publicKey) as? [String: Any])
        let publicX963 = try SecKeyCalls.external(publicKey)
        let label = Data(Insecure.SHA1.hash(data: publicX963))
        #expect(privateAttributes[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassPrivate as String)
        #expect(publicAttributes[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassPublic as String)
        #expect(privateAttributes[kSecAttrKeyType as String] as? String == kSecAttrKeyTypeECSECPrimeRandom as String)
        #expect(privateAttributes[kSecAttrKeySizeInBits as String] as? Int == 256)
        #expect(privateAttributes[kSecAttrApplicationLabel as String] as? Data == label)
        #expect(publicAttributes[kSecAttrApplicationLabel as String] as? Data == label)
        #expect(privateAttributes[kSecValueData as String] as? Data == (try SecKeyCalls.external(key)))
        #expect(publicAttributes[kSecValueData as String] as? Data == publicX963)
        for (flag, privateValue) in [(kSecAttrCanSign, true), (kSecAttrCanVerify, false), (kSecAttrCanDecrypt, true),
                                     (kSecAttrCanEncrypt, false), (kSecAttrCanDerive, true), (kSecAttrCanUnwrap, true), (kSecAttrCanWrap, false)] {
            #expect(privateAttributes[flag as String] as? Bool == privateValue)
            #expect(publicAttributes[flag as String] as? Bool == (flag == kSecAttrCanDerive ? true : !privateValue))
        }
    }

    // Rule: SecKeyCreateRandomKey refuses what it cannot make with errSecParam, and RSA sizes
    // outside Apple's bounds (512 to 8192 bits) with errSecKeySizeNotAllowed, as Apple's does.
    @Test("SecKeyCreateRandomKey refuses unknown sizes and types with errSecParam, RSA sizes out of bounds with errSecKeySizeNotAllowed")
    func randomKeyRefusals() {
        for bits in [256, 511, 8320, 16384] {
            let parameters: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: bits]
            var error: Unmanaged<CFError>?
            #expect(SecKeyCreateRandomKey(parameters as CFDictionary, &error) == nil)
            #expect(SecKeyCalls.status(error) == Int(errSecKeySizeNotAllowed))
        }
        for parameters: [String: Any] in [
            [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 255],
            [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom],
            [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 1000],
            [kSecAttrKeySizeInBits as String: 256],
            [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
             kSecPrivateKeyAttrs as String: "not a dictionary"],
        ] {
            var error: Unmanaged<CFError>?
            #expect(SecKeyCreateRandomKey(parameters as CFDictionary, &error) == nil)
            #expect(SecKeyCalls.status(error) == -50)
        }
    }

    // Apple generates RSA keys of 1024 bits and less (CertificateSigningRequest's tests make
    // them), and code written before SecKeyCreateRandomKey calls SecKeyGeneratePair.
    @Test("SecKeyGeneratePair makes a pair as SecKeyCreateRandomKey does, 1024-bit RSA included; a refused size is its status")
    func generatePairAndSmallRSA() throws {
        var publicKey: SecKey?, privateKey: SecKey?
        let rsa: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 1024]
        #expect(SecKeyGeneratePair(rsa as CFDictionary, &publicKey, &privateKey) == errSecSuccess)
        let privateRSA = try #require(privateKey), publicRSA = try #require(publicKey)
        let attributes = try #require(SecKeyCopyAttributes(publicRSA) as? [String: Any])
        #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == 1024)
        // Checked by CryptoExtras itself: the public key's DER and a signature by the private one.
        var error: Unmanaged<CFError>?
        let der = try #require(SecKeyCopyExternalRepresentation(publicRSA, &error) as Data?)
        let verifier = try _RSA.Signing.PublicKey(unsafeDERRepresentation: der)
        let signature = try #require(SecKeyCreateSignature(privateRSA, .rsaSignatureMessagePKCS1v15SHA256,
                                                           Self.message as CFData, &error) as Data?)
        #expect(verifier.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: Self.message,
                                          padding: .insecurePKCS1v1_5))

        var ecPublic: SecKey?, ecPrivate: SecKey?
        let ec: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256]
        #expect(SecKeyGeneratePair(ec as CFDictionary, &ecPublic, &ecPrivate) == errSecSuccess)
        let generatedPrivate = try #require(ecPrivate), generatedPublic = try #require(ecPublic)
        let derivedPublic = try #require(SecKeyCopyPublicKey(generatedPrivate))
        #expect(SecKeyCopyExternalRepresentation(derivedPublic, nil) as Data?
                == SecKeyCopyExternalRepresentation(generatedPublic, nil) as Data?)

        var untouched: SecKey? = publicRSA
        let small: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 256]
        #expect(SecKeyGeneratePair(small as CFDictionary, &untouched, nil) == errSecKeySizeNotAllowed)
        #expect(untouched === publicRSA)
    }

    // Rule (Apple, SecKeyRawSign): the legacy call signs a digest as ecdsaSignatureDigestX962
    // (r ‖ s with sigRaw); a buffer too small is errSecParam and leaves it untouched.
    @Test("SecKeyRawSign and SecKeyRawVerify run the digest algorithms; small buffers are errSecParam")
    func legacySignature() throws {
        let key = try SecKeyCalls.randomKey(type: kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let publicKey = try SecKeyCalls.publicKey(key)
        let digest = [UInt8](SHA256.hash(data: Self.message))
        var signature = [UInt8](repeating: 0, count: 128)
        var length = signature.count
        #expect(SecKeyRawSign(key, .PKCS1, digest, digest.count, &signature, &length) == errSecSuccess)
        let der = Data(signature.prefix(length))
        #expect(SecKeyCalls.verify(publicKey, .ecdsaSignatureMessageX962SHA256, Self.message, der) == (true, nil))
        #expect(SecKeyRawVerify(publicKey, .PKCS1, digest, digest.count, signature, length) == errSecSuccess)
        var changed = digest
        changed[0] ^= 1
        // SecKey.m (SecKeyPerformLegacyOperation): the legacy calls give errSSLCrypto for a
        // signature that does not verify, where the modern ones give errSecVerifyFailed.
        #expect(SecKeyRawVerify(publicKey, .PKCS1, changed, changed.count, signature, length) == errSSLCrypto)
        var raw = [UInt8](repeating: 0, count: 64)
        var rawLength = raw.count
        #expect(SecKeyRawSign(key, .sigRaw, digest, digest.count, &raw, &rawLength) == errSecSuccess)
        #expect(rawLength == 64)
        var small = [UInt8](repeating: 0xAA, count: 10)
        var smallLength = small.count
        #expect(SecKeyRawSign(key, [], digest, digest.count, &small, &smallLength) == errSecParam)
        #expect(small == [UInt8](repeating: 0xAA, count: 10) && smallLength == 10)
        #expect(SecKeyEncrypt(publicKey, .PKCS1, digest, digest.count, &raw, &rawLength) == errSecParam)
    }
}
