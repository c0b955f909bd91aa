import Crypto
import CryptoExtras
import Foundation
import Security
import Testing
import TestSupport

// JOSESwift (airsidemobile/JOSESwift, JOSESwift/Sources/CryptoImplementation) calls Security
// for RS256/RS512 signatures, RSA1_5 and RSA-OAEP-256 key wrapping, keys from JWK components,
// ES256 raw signatures and ECDH-ES. The functions below make the same calls with the same
// argument shapes and casts, written here from reading that code (not copied from it).
// CommonCrypto is not ours to provide: its EC.swift, HMAC.swift, AES.swift, PBES2.swift and
// ECDHKeyAgreement.swift hash, MAC and encrypt with it (CC_SHA256, CCHmac, CCCrypt); here
// swift-crypto stands in where they would call it.

/// JOSESwift's errors, as its RSAError and ECError name them.
enum JOSESwiftStyleError: Error, Equatable {
    case algorithmNotSupported
    case plainTextLengthNotSatisfied
    case cipherTextLengthNotSatisfied
    case notAPublicKey
    case cannotConvertToSecKey
    case failed(String)
}

/// JOSESwift's SignatureAlgorithm and AsymmetricKeyAlgorithm, mapped to SecKeyAlgorithm as in
/// RSA.swift (`fileprivate extension SignatureAlgorithm { var secKeyAlgorithm }`).
enum JOSESwiftSignatureAlgorithm {
    case RS256, RS512, ES256

    var secKeyAlgorithm: SecKeyAlgorithm? {
        switch self {
        case .RS256: .rsaSignatureMessagePKCS1v15SHA256
        case .RS512: .rsaSignatureMessagePKCS1v15SHA512
        case .ES256: nil
        }
    }
}

enum JOSESwiftKeyManagementAlgorithm {
    case RSA1_5, RSAOAEP256

    var secKeyAlgorithm: SecKeyAlgorithm {
        switch self {
        case .RSA1_5: .rsaEncryptionPKCS1
        case .RSAOAEP256: .rsaEncryptionOAEPSHA256
        }
    }

    /// RSA.swift's maxMessageLength(for:): RFC 3447's limits from SecKeyGetBlockSize.
    func maxMessageLength(for publicKey: SecKey) -> Int {
        let k = SecKeyGetBlockSize(publicKey)
        switch self {
        case .RSA1_5: return k - 11
        case .RSAOAEP256: return k - 2 * (256 / 8) - 2
        }
    }
}

/// RSA.swift's `struct RSA`: SecKeyIsAlgorithmSupported first, then the SecKey call with an
/// `Unmanaged<CFError>?` whose `takeRetainedValue().localizedDescription` becomes the error.
enum JOSESwiftRSA {
    static func sign(_ signingInput: Data, with privateKey: SecKey, and algorithm: JOSESwiftSignatureAlgorithm) throws -> Data {
        guard let algorithm = algorithm.secKeyAlgorithm, SecKeyIsAlgorithmSupported(privateKey, .sign, algorithm) else {
            throw JOSESwiftStyleError.algorithmNotSupported
        }
        var signingError: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(privateKey, algorithm, signingInput as CFData, &signingError) else {
            throw JOSESwiftStyleError.failed(signingError?.takeRetainedValue().localizedDescription ?? "No description available.")
        }
        return signature as Data
    }

    static func verify(_ verifyingInput: Data, against signature: Data, with publicKey: SecKey,
                       and algorithm: JOSESwiftSignatureAlgorithm) throws -> Bool {
        guard let algorithm = algorithm.secKeyAlgorithm, SecKeyIsAlgorithmSupported(publicKey, .verify, algorithm) else {
            throw JOSESwiftStyleError.algorithmNotSupported
        }
        var verificationError: Unmanaged<CFError>?
        guard SecKeyVerifySignature(publicKey, algorithm, verifyingInput as CFData, signature as CFData, &verificationError) else {
            if let description = verificationError?.takeRetainedValue().localizedDescription {
                throw JOSESwiftStyleError.failed(description)
            }
            return false
        }
        return true
    }

    static func encrypt(_ plaintext: Data, with publicKey: SecKey, and algorithm: JOSESwiftKeyManagementAlgorithm) throws -> Data {
        guard SecKeyIsAlgorithmSupported(publicKey, .encrypt, algorithm.secKeyAlgorithm) else {
            throw JOSESwiftStyleError.algorithmNotSupported
        }
        guard plaintext.count <= algorithm.maxMessageLength(for: publicKey) else {
            throw JOSESwiftStyleError.plainTextLengthNotSatisfied
        }
        var encryptionError: Unmanaged<CFError>?
        guard let cipherText = SecKeyCreateEncryptedData(publicKey, algorithm.secKeyAlgorithm, plaintext as CFData, &encryptionError) else {
            throw JOSESwiftStyleError.failed(encryptionError?.takeRetainedValue().localizedDescription ?? "No description available.")
        }
        return cipherText as Data
    }

    static func decrypt(_ ciphertext: Data, with privateKey: SecKey, and algorithm: JOSESwiftKeyManagementAlgorithm) throws -> Data {
        guard SecKeyIsAlgorithmSupported(privateKey, .decrypt, algorithm.secKeyAlgorithm) else {
            throw JOSESwiftStyleError.algorithmNotSupported
        }
        guard ciphertext.count == SecKeyGetBlockSize(privateKey) else {
            throw JOSESwiftStyleError.cipherTextLengthNotSatisfied
        }
        var decryptionError: Unmanaged<CFError>?
        guard let plainText = SecKeyCreateDecryptedData(privateKey, algorithm.secKeyAlgorithm, ciphertext as CFData, &decryptionError) else {
            throw JOSESwiftStyleError.failed(decryptionError?.takeRetainedValue().localizedDescription ?? "No description available.")
        }
        return plainText as Data
    }
}

/// SecKeyRSAPublicKey.swift and SecKeyECPublicKey.swift: SecKey conforms to JOSESwift's
/// protocols, its `static func ... -> Self` going through a generic helper that casts the
/// new key `as? T`, and a public key's bytes come back after checking its class in
/// `SecKeyCopyAttributes(self) as? [CFString: AnyObject]`.
protocol JOSESwiftExpressibleAsPublicKey {
    static func representing(publicKeyBytes: Data, keyType: CFString, sizeInBits: Int) throws -> Self
    func publicKeyBytes() throws -> Data
}

extension SecKey: JOSESwiftExpressibleAsPublicKey {
    static func representing(publicKeyBytes: Data, keyType: CFString, sizeInBits: Int) throws -> Self {
        try joseInstantiate(type: self, from: publicKeyBytes, keyType: keyType, sizeInBits: sizeInBits)
    }

    private static func joseInstantiate<T>(type: T.Type, from keyData: Data, keyType: CFString, sizeInBits: Int) throws -> T {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: keyType,
            kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
            kSecAttrKeySizeInBits as String: sizeInBits,
            kSecAttrIsPermanent as String: false,
        ]
        var error: Unmanaged<CFError>?
        guard let keyReference = SecKeyCreateWithData(keyData as CFData, attributes as CFDictionary, &error) else {
            throw error.map { $0.takeRetainedValue() as Error } ?? JOSESwiftStyleError.failed("SecKeyCreateWithData")
        }
        guard let key = keyReference as? T else {
            throw JOSESwiftStyleError.cannotConvertToSecKey
        }
        return key
    }

    func publicKeyBytes() throws -> Data {
        guard let attributes = SecKeyCopyAttributes(self) as? [CFString: AnyObject],
              let keyClass = attributes[kSecAttrKeyClass],
              keyClass as? CFString == kSecAttrKeyClassPublic
        else {
            throw JOSESwiftStyleError.notAPublicKey
        }
        var error: Unmanaged<CFError>?
        guard let keyData = SecKeyCopyExternalRepresentation(self, &error) else {
            throw error.map { $0.takeRetainedValue() as Error } ?? JOSESwiftStyleError.failed("SecKeyCopyExternalRepresentation")
        }
        return keyData as Data
    }
}

/// EC.swift (ES256): the digest signed with the legacy SecKeyRawSign and `.sigRaw`, into an
/// `NSMutableData` buffer of the curve's r ‖ s length reached through `mutableBytes`; checked
/// with SecKeyRawVerify, any status but 0 an error.
enum JOSESwiftEC {
    static let signatureOctetLength = 64

    static func sign(_ signingInput: Data, with privateKey: SecKey) throws -> Data {
        let digest = [UInt8](SHA256.hash(data: signingInput))  // JOSESwift: CC_SHA256
        var signatureLength = signatureOctetLength
        guard let signature = NSMutableData(length: signatureLength) else {
            throw JOSESwiftStyleError.failed("no buffer")
        }
        let signatureBytes = signature.mutableBytes.assumingMemoryBound(to: UInt8.self)
        let status = SecKeyRawSign(privateKey, .sigRaw, digest, digest.count, signatureBytes, &signatureLength)
        if status != 0 {
            throw JOSESwiftStyleError.failed("Error creating signature. (OSStatus: \(status))")
        }
        return signature as Data
    }

    static func verify(_ verifyingInput: Data, against signature: Data, with publicKey: SecKey) throws -> Bool {
        let digest = [UInt8](SHA256.hash(data: verifyingInput))
        let signatureBytes: [UInt8] = Array(signature)
        let status = SecKeyRawVerify(publicKey, .sigRaw, digest, digest.count, signatureBytes, signatureOctetLength)
        if status != 0 {
            throw JOSESwiftStyleError.failed("Error validating signature. (OSStatus: \(status))")
        }
        return true
    }

    /// ECDHKeyAgreement.swift's ecdhDeriveBits: the raw shared secret, with an empty
    /// `[String: Any]` as the parameters.
    static func deriveBits(privateKey: SecKey, publicKey: SecKey) throws -> Data {
        let parameters = [String: Any]()
        var error: Unmanaged<CFError>?
        guard let derivedData = SecKeyCopyKeyExchangeResult(privateKey, SecKeyAlgorithm.ecdhKeyExchangeStandard, publicKey,
                                                            parameters as CFDictionary, &error) else {
            throw JOSESwiftStyleError.failed(error?.takeRetainedValue().localizedDescription ?? "Derive Key Fail")
        }
        return derivedData as Data
    }

    /// ECDHKeyAgreement.swift's randomBytes: SecRandomCopyBytes into a `[UInt8]`.
    static func randomBytes(size: Int) -> Data? {
        var bytes = [UInt8](repeating: 0, count: size)
        guard errSecSuccess == SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes) else {
            return nil
        }
        return Data(bytes)
    }
}

/// JOSESwift's uses of Security run against this module, checked against CryptoExtras and
/// swift-crypto called directly.
@Suite("Third-party usage: JOSESwift")
struct JOSESwiftUsageTests {
    static let message = Data("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0".utf8)

    static func rsaPair() throws -> (privateKey: SecKey, publicKey: SecKey, crypto: _RSA.Signing.PrivateKey) {
        let crypto = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let privateKey = try SecKeyCalls.key(crypto.derRepresentation, type: kSecAttrKeyTypeRSA, private: true)
        return (privateKey, try SecKeyCalls.publicKey(privateKey), crypto)
    }

    // Standard (RFC 7518, section 3.3; Apple's SecKeyCreateSignature): RS256/RS512 are PKCS #1 v1.5
    // signatures that any implementation verifies; a changed input fails with an error
    // (SecKeyVerifySignature sets one), and SecKeyIsAlgorithmSupported refuses signing with
    // a public key before any call.
    @Test("RSA.swift: RS256/RS512 signatures verify with CryptoExtras; a changed input throws; no signing with a public key")
    func rsaSignatures() throws {
        let pair = try Self.rsaPair()
        let cryptoPublic = pair.crypto.publicKey
        for algorithm in [JOSESwiftSignatureAlgorithm.RS256, .RS512] {
            let signature = try JOSESwiftRSA.sign(Self.message, with: pair.privateKey, and: algorithm)
            #expect(signature.count == SecKeyGetBlockSize(pair.privateKey))
            let rawSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            let verifiedByCryptoExtras = algorithm == .RS256
                ? cryptoPublic.isValidSignature(rawSignature, for: SHA256.hash(data: Self.message), padding: .insecurePKCS1v1_5)
                : cryptoPublic.isValidSignature(rawSignature, for: SHA512.hash(data: Self.message), padding: .insecurePKCS1v1_5)
            #expect(verifiedByCryptoExtras)
            #expect(try JOSESwiftRSA.verify(Self.message, against: signature, with: pair.publicKey, and: algorithm))
            var changed = Self.message
            changed[0] ^= 1
            #expect(throws: JOSESwiftStyleError.self) {
                try JOSESwiftRSA.verify(changed, against: signature, with: pair.publicKey, and: algorithm)
            }
        }
        #expect(throws: JOSESwiftStyleError.algorithmNotSupported) {
            try JOSESwiftRSA.sign(Self.message, with: pair.publicKey, and: .RS256)
        }
    }

    // Standard (RFC 7518, sections 4.2 and 4.3; RFC 3447, section 7): RSA1_5 and RSA-OAEP-256 wrap a content key that
    // the other side unwraps; the limits come from SecKeyGetBlockSize (256 for RSA-2048).
    @Test("RSA.swift: RSA1_5 and RSA-OAEP-256 wrap keys that CryptoExtras/openssl unwrap and the reverse; SecKeyGetBlockSize limits")
    func rsaKeyWrapping() throws {
        let pair = try Self.rsaPair()
        #expect(SecKeyGetBlockSize(pair.publicKey) == 256 && SecKeyGetBlockSize(pair.privateKey) == 256)
        #expect(JOSESwiftKeyManagementAlgorithm.RSA1_5.maxMessageLength(for: pair.publicKey) == 245)
        #expect(JOSESwiftKeyManagementAlgorithm.RSAOAEP256.maxMessageLength(for: pair.publicKey) == 190)
        let contentKey = try #require(JOSESwiftEC.randomBytes(size: 32))
        let cryptoDecryption = try _RSA.Encryption.PrivateKey(derRepresentation: pair.crypto.derRepresentation)

        let oaep = try JOSESwiftRSA.encrypt(contentKey, with: pair.publicKey, and: .RSAOAEP256)
        #expect(try cryptoDecryption.decrypt(oaep, padding: .PKCS1_OAEP_SHA256) == contentKey)
        let fromCrypto = try cryptoDecryption.publicKey.encrypt(contentKey, padding: .PKCS1_OAEP_SHA256)
        #expect(try JOSESwiftRSA.decrypt(fromCrypto, with: pair.privateKey, and: .RSAOAEP256) == contentKey)

        // PKCS #1 v1.5 encryption: openssl decrypts what SecKey made.
        let folder = try OpenSSLFolder()
        try folder.write(Data(pair.crypto.pemRepresentation.utf8), "key.pem")
        let pkcs1 = try JOSESwiftRSA.encrypt(contentKey, with: pair.publicKey, and: .RSA1_5)
        try folder.write(pkcs1, "wrapped")
        try folder.require(["pkeyutl", "-decrypt", "-inkey", folder.path("key.pem"), "-pkeyopt", "rsa_padding_mode:pkcs1",
                            "-in", folder.path("wrapped"), "-out", folder.path("unwrapped")])
        #expect(try folder.read("unwrapped") == contentKey)
        #expect(try JOSESwiftRSA.decrypt(pkcs1, with: pair.privateKey, and: .RSA1_5) == contentKey)

        #expect(throws: JOSESwiftStyleError.plainTextLengthNotSatisfied) {
            try JOSESwiftRSA.encrypt(Data(count: 246), with: pair.publicKey, and: .RSA1_5)
        }
        #expect(throws: JOSESwiftStyleError.cipherTextLengthNotSatisfied) {
            try JOSESwiftRSA.decrypt(pkcs1.dropLast(), with: pair.privateKey, and: .RSA1_5)
        }
    }

    // Rule (Apple, SecKeyCreateWithData/SecKeyCopyAttributes): a public key made from its
    // PKCS #1 or X9.63 bytes gives the same bytes back, its attributes name its class and
    // size; a private key is not taken for a public one.
    @Test("SecKeyRSAPublicKey/SecKeyECPublicKey.swift: keys from JWK bytes through `Self`, back through [CFString: AnyObject]")
    func keysFromComponents() throws {
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey
        let rsaKey = try SecKey.representing(publicKeyBytes: rsa.pkcs1DERRepresentation, keyType: kSecAttrKeyTypeRSA, sizeInBits: 2048)
        #expect(try rsaKey.publicKeyBytes() == rsa.pkcs1DERRepresentation)
        let rsaAttributes = try #require(SecKeyCopyAttributes(rsaKey) as? [CFString: Any])
        #expect(rsaAttributes[kSecAttrKeySizeInBits] as? Int == 2048)

        let ec = P256.Signing.PrivateKey()
        let ecKey = try SecKey.representing(publicKeyBytes: ec.publicKey.x963Representation, keyType: kSecAttrKeyTypeEC, sizeInBits: 256)
        #expect(try ecKey.publicKeyBytes() == ec.publicKey.x963Representation)
        let ecAttributes = try #require(SecKeyCopyAttributes(ecKey) as? [CFString: Any])
        #expect(ecAttributes[kSecAttrKeySizeInBits] as? Int == 256)

        let privateKey = try SecKeyCalls.key(ec.x963Representation, type: kSecAttrKeyTypeECSECPrimeRandom, private: true)
        #expect(throws: JOSESwiftStyleError.notAPublicKey) { try privateKey.publicKeyBytes() }
    }

    // Standard (RFC 7518, section 3.4; Apple's kSecPaddingSigRaw): ES256 is r ‖ s, 64 bytes, over the
    // SHA-256 digest; swift-crypto verifies ours and ours verifies swift-crypto's.
    @Test("EC.swift: SecKeyRawSign .sigRaw gives r ‖ s that swift-crypto verifies, and SecKeyRawVerify takes swift-crypto's")
    func ecRawSignatures() throws {
        let crypto = P256.Signing.PrivateKey()
        let privateKey = try SecKeyCalls.key(crypto.x963Representation, type: kSecAttrKeyTypeECSECPrimeRandom, private: true)
        let publicKey = try SecKeyCalls.publicKey(privateKey)
        let signature = try JOSESwiftEC.sign(Self.message, with: privateKey)
        #expect(signature.count == 64)
        #expect(crypto.publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Self.message))
        let theirs = try crypto.signature(for: Self.message).rawRepresentation
        #expect(try JOSESwiftEC.verify(Self.message, against: theirs, with: publicKey))
        var changed = theirs
        changed[5] ^= 1
        #expect(throws: JOSESwiftStyleError.self) { try JOSESwiftEC.verify(Self.message, against: changed, with: publicKey) }
    }

    // Standard (RFC 7518, section 4.6; Apple's ecdhKeyExchangeStandard): ECDH-ES's Z is the raw shared
    // x-coordinate, the same on both sides and as swift-crypto's.
    @Test("ECDHKeyAgreement.swift: ecdhKeyExchangeStandard with empty parameters equals swift-crypto's shared secret")
    func ecdhDeriveBits() throws {
        let ours = P256.KeyAgreement.PrivateKey()
        let theirs = P256.KeyAgreement.PrivateKey()
        let ourKey = try SecKeyCalls.key(ours.x963Representation, type: kSecAttrKeyTypeECSECPrimeRandom, private: true)
        let theirPublic = try SecKey.representing(publicKeyBytes: theirs.publicKey.x963Representation,
                                                  keyType: kSecAttrKeyTypeECSECPrimeRandom, sizeInBits: 256)
        let z = try JOSESwiftEC.deriveBits(privateKey: ourKey, publicKey: theirPublic)
        let expected = try theirs.sharedSecretFromKeyAgreement(with: ours.publicKey).withUnsafeBytes { Data($0) }
        #expect(z == expected && z.count == 32)
    }
}
