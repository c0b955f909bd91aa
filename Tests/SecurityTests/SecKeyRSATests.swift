import Crypto
import CryptoExtras
import Foundation
import Security
import Testing
import TestSupport

/// SecKey's RSA algorithms, checked against the `openssl` command and CryptoExtras used
/// directly: PKCS #1 v1.5 signatures equal openssl's byte for byte, PSS and OAEP made here
/// are read there and the reverse, the external representations are openssl's DER.
@Suite("SecKey RSA keys")
struct SecKeyRSATests {
    private static let message = Data("RSA signatures and encryption, checked elsewhere".utf8)

    /// A 2048-bit key made by openssl, with its PEM files (key.pem, pub.pem) and DER forms
    /// (PKCS #1) in the folder, and the SecKey of the private key's DER.
    private static func opensslKey(in folder: OpenSSLFolder, bits: Int = 2048) throws -> SecKey {
        try folder.require(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)", "-out", folder.path("key.pem")])
        try folder.require(["rsa", "-in", folder.path("key.pem"), "-pubout", "-out", folder.path("pub.pem")])
        try folder.require(["rsa", "-in", folder.path("key.pem"), "-traditional", "-outform", "DER", "-out", folder.path("key.der")])
        try folder.require(["rsa", "-in", folder.path("key.pem"), "-RSAPublicKey_out", "-outform", "DER", "-out", folder.path("pub.der")])
        return try SecKeyCalls.key(try folder.read("key.der"), type: kSecAttrKeyTypeRSA, private: true)
    }

    static let hashes: [(name: String, bytes: Int)] = [("sha1", 20), ("sha224", 28), ("sha256", 32), ("sha384", 48), ("sha512", 64)]

    private static func pkcs1(_ hash: String, message: Bool) -> SecKeyAlgorithm {
        switch (hash, message) {
        case ("sha1", true): .rsaSignatureMessagePKCS1v15SHA1
        case ("sha224", true): .rsaSignatureMessagePKCS1v15SHA224
        case ("sha224", false): .rsaSignatureDigestPKCS1v15SHA224
        case ("sha256", true): .rsaSignatureMessagePKCS1v15SHA256
        case ("sha384", true): .rsaSignatureMessagePKCS1v15SHA384
        case ("sha512", true): .rsaSignatureMessagePKCS1v15SHA512
        case ("sha1", false): .rsaSignatureDigestPKCS1v15SHA1
        case ("sha256", false): .rsaSignatureDigestPKCS1v15SHA256
        case ("sha384", false): .rsaSignatureDigestPKCS1v15SHA384
        default: .rsaSignatureDigestPKCS1v15SHA512
        }
    }

    private static func pss(_ hash: String, message: Bool) -> SecKeyAlgorithm {
        switch (hash, message) {
        case ("sha1", true): .rsaSignatureMessagePSSSHA1
        case ("sha224", true): .rsaSignatureMessagePSSSHA224
        case ("sha224", false): .rsaSignatureDigestPSSSHA224
        case ("sha256", true): .rsaSignatureMessagePSSSHA256
        case ("sha384", true): .rsaSignatureMessagePSSSHA384
        case ("sha512", true): .rsaSignatureMessagePSSSHA512
        case ("sha1", false): .rsaSignatureDigestPSSSHA1
        case ("sha256", false): .rsaSignatureDigestPSSSHA256
        case ("sha384", false): .rsaSignatureDigestPSSSHA384
        default: .rsaSignatureDigestPSSSHA512
        }
    }

    private static func oaep(_ hash: String) -> SecKeyAlgorithm {
        switch hash {
        case "sha1": .rsaEncryptionOAEPSHA1
        case "sha224": .rsaEncryptionOAEPSHA224
        case "sha256": .rsaEncryptionOAEPSHA256
        case "sha384": .rsaEncryptionOAEPSHA384
        default: .rsaEncryptionOAEPSHA512
        }
    }

    private static func digest(_ hash: String, _ data: Data) -> Data {
        switch hash {
        case "sha1": Data(Insecure.SHA1.hash(data: data))
        case "sha224": SHA224Reference.digest(data)
        case "sha256": Data(SHA256.hash(data: data))
        case "sha384": Data(SHA384.hash(data: data))
        default: Data(SHA512.hash(data: data))
        }
    }

    // Rule: the external representations are PKCS #1 DER, what `openssl rsa -traditional`
    // and `-RSAPublicKey_out` write for the same key.
    @Test("External representations are openssl's PKCS #1 DER")
    func externalRepresentations() throws {
        let folder = try OpenSSLFolder()
        let key = try Self.opensslKey(in: folder)
        #expect(try SecKeyCalls.external(key) == folder.read("key.der"))
        #expect(try SecKeyCalls.external(SecKeyCalls.publicKey(key)) == folder.read("pub.der"))
        #expect(SecKeyGetBlockSize(key) == 256)
        // Apple's application label: the SHA-1 of the public key's PKCS #1 DER.
        let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        #expect(attributes[kSecAttrApplicationLabel as String] as? Data == Data(Insecure.SHA1.hash(data: try folder.read("pub.der"))))
        #expect(attributes[kSecAttrKeyType as String] as? String == kSecAttrKeyTypeRSA as String)
        #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == 2048)
    }

    // Rule: rsaSignatureDigestPKCS1v15Raw pads the data as given (no DigestInfo) and
    // rsaSignatureRaw is the bare private operation: what `openssl pkeyutl -sign` makes with
    // PKCS #1, and `openssl pkeyutl -decrypt` with no padding (the same operation; openssl
    // does not sign a block that long).
    @Test("Raw and DigestInfo-less PKCS #1 signatures equal openssl pkeyutl's")
    func rawSignatures() throws {
        let folder = try OpenSSLFolder()
        let key = try Self.opensslKey(in: folder)
        let publicKey = try SecKeyCalls.publicKey(key)
        let data = Data("thirty-six bytes of data to be sign".utf8)
        try folder.write(data, "data")
        try folder.require(["pkeyutl", "-sign", "-inkey", folder.path("key.pem"), "-in", folder.path("data"),
                            "-out", folder.path("pkcs1"), "-pkeyopt", "rsa_padding_mode:pkcs1"])
        let pkcs1 = try folder.read("pkcs1")
        #expect(try SecKeyCalls.sign(key, .rsaSignatureDigestPKCS1v15Raw, data) == pkcs1)
        #expect(SecKeyCalls.verify(publicKey, .rsaSignatureDigestPKCS1v15Raw, data, pkcs1) == (true, nil))
        let block = Data([0x00, 0x01]) + Data((2..<256).map { UInt8($0 & 0xFF) })
        try folder.write(block, "block")
        try folder.require(["pkeyutl", "-decrypt", "-inkey", folder.path("key.pem"), "-in", folder.path("block"),
                            "-out", folder.path("raw"), "-pkeyopt", "rsa_padding_mode:none"])
        let raw = try folder.read("raw")
        #expect(try SecKeyCalls.sign(key, .rsaSignatureRaw, block) == raw)
        #expect(SecKeyCalls.verify(publicKey, .rsaSignatureRaw, block, raw) == (true, nil))
    }

    // Rule (Apple): SecKeyCreateWithData reads 1024-bit keys, which older systems still use;
    // they sign as openssl does.
    @Test("1024-bit keys are read and sign as openssl does")
    func keysOf1024Bits() throws {
        let folder = try OpenSSLFolder()
        let key = try Self.opensslKey(in: folder, bits: 1024)
        #expect(SecKeyGetBlockSize(key) == 128)
        try folder.write(Self.message, "message")
        try folder.require(["dgst", "-sha256", "-sign", folder.path("key.pem"), "-out", folder.path("signature"), folder.path("message")])
        #expect(try SecKeyCalls.sign(key, .rsaSignatureMessagePKCS1v15SHA256, Self.message) == folder.read("signature"))
        let publicKey = try SecKeyCalls.key(try folder.read("pub.der"), type: kSecAttrKeyTypeRSA, private: false)
        #expect(SecKeyCalls.verify(publicKey, .rsaSignatureMessagePKCS1v15SHA256, Self.message, try folder.read("signature")) == (true, nil))
        // PSS with SHA-512 needs 2 × 64 + 2 bytes: more than a 1024-bit key has.
        #expect(SecKeyCalls.signingStatus(key, .rsaSignatureMessagePSSSHA512, Self.message) == -50)
    }

    // Rule (Apple): SecKeyCreateRandomKey makes RSA keys from 512 bits, as Apple's does
    // (CertificateSigningRequest's tests make 512- and 1024-bit keys), and such keys sign,
    // verify, encrypt and decrypt as openssl does with the same key.
    @Test("512- and 1024-bit keys are generated, and openssl checks them and their signatures", arguments: [512, 1024])
    func smallGeneratedKeys(bits: Int) throws {
        let folder = try OpenSSLFolder()
        let key = try SecKeyCalls.randomKey(type: kSecAttrKeyTypeRSA, bits: bits)
        let publicKey = try SecKeyCalls.publicKey(key)
        #expect(SecKeyGetBlockSize(key) == bits / 8)
        let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == bits)
        try folder.write(try SecKeyCalls.external(key), "key.der")
        let check = try folder.openssl(["rsa", "-inform", "DER", "-in", folder.path("key.der"), "-check", "-noout"])
        #expect(check.status == 0 && check.output.contains("RSA key ok"))
        try folder.require(["rsa", "-inform", "DER", "-in", folder.path("key.der"), "-out", folder.path("key.pem")])
        try folder.require(["rsa", "-in", folder.path("key.pem"), "-RSAPublicKey_out", "-outform", "DER", "-out", folder.path("pub.der")])
        #expect(try SecKeyCalls.external(publicKey) == folder.read("pub.der"))
        try folder.write(Self.message, "message")
        // SHA-512's DigestInfo (83 bytes) and its padding do not fit a 512-bit block.
        for hash in bits == 512 ? ["sha1", "sha256"] : ["sha1", "sha256", "sha512"] {
            try folder.require(["dgst", "-\(hash)", "-sign", folder.path("key.pem"), "-out", folder.path("signature"), folder.path("message")])
            let expected = try folder.read("signature")
            #expect(try SecKeyCalls.sign(key, Self.pkcs1(hash, message: true), Self.message) == expected)
            #expect(SecKeyCalls.verify(publicKey, Self.pkcs1(hash, message: true), Self.message, expected) == (true, nil))
        }
        if bits == 512 {
            #expect(SecKeyCalls.signingStatus(key, .rsaSignatureMessagePKCS1v15SHA512, Self.message) == -50)
        }
        let secret = Data("small key secret".utf8)
        try folder.write(try #require(SecKeyCalls.encrypt(publicKey, .rsaEncryptionPKCS1, secret).0), "ciphertext")
        try folder.require(["pkeyutl", "-decrypt", "-inkey", folder.path("key.pem"), "-in", folder.path("ciphertext"),
                            "-out", folder.path("plaintext"), "-pkeyopt", "rsa_padding_mode:pkcs1"])
        #expect(try folder.read("plaintext") == secret)
        // A key openssl made of the same size reads back to the same DER.
        let theirs = try Self.opensslKey(in: folder, bits: bits)
        #expect(try SecKeyCalls.external(theirs) == folder.read("key.der"))
    }

    // Rule: PKCS #1 v1.5 signatures are deterministic: SecKey's equal `openssl dgst -sign`'s
    // byte for byte, in the message and digest forms, and verify with SecKey.
    @Test("PKCS #1 v1.5 signatures equal openssl's and verify", arguments: hashes.map(\.name))
    func pkcs1Signatures(hash: String) throws {
        let folder = try OpenSSLFolder()
        let key = try Self.opensslKey(in: folder)
        let publicKey = try SecKeyCalls.publicKey(key)
        try folder.write(Self.message, "message")
        try folder.require(["dgst", "-\(hash)", "-sign", folder.path("key.pem"), "-out", folder.path("signature"), folder.path("message")])
        let expected = try folder.read("signature")
        #expect(try SecKeyCalls.sign(key, Self.pkcs1(hash, message: true), Self.message) == expected)
        #expect(try SecKeyCalls.sign(key, Self.pkcs1(hash, message: false), Self.digest(hash, Self.message)) == expected)
        #expect(SecKeyCalls.verify(publicKey, Self.pkcs1(hash, message: true), Self.message, expected) == (true, nil))
        var changed = expected
        changed[changed.count - 1] ^= 1
        #expect(SecKeyCalls.verify(publicKey, Self.pkcs1(hash, message: true), Self.message, changed) == (false, -67808))
    }

    // Rule (Apple): PSS uses MGF1 with the same hash and a salt as long as the digest:
    // openssl verifies SecKey's with that salt length, and SecKey verifies openssl's.
    @Test("PSS signatures verify with openssl (salt = digest length) and the reverse", arguments: hashes)
    func pssSignatures(hash: (name: String, bytes: Int)) throws {
        let folder = try OpenSSLFolder()
        let key = try Self.opensslKey(in: folder)
        let publicKey = try SecKeyCalls.publicKey(key)
        try folder.write(Self.message, "message")
        let options = ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:\(hash.bytes)",
                       "-sigopt", "rsa_mgf1_md:\(hash.name)"]
        for asMessage in [true, false] {
            let input = asMessage ? Self.message : Self.digest(hash.name, Self.message)
            try folder.write(try SecKeyCalls.sign(key, Self.pss(hash.name, message: asMessage), input), "signature")
            let result = try folder.openssl(["dgst", "-\(hash.name)"] + options + ["-verify", folder.path("pub.pem"),
                                             "-signature", folder.path("signature"), folder.path("message")])
            #expect(result.status == 0 && result.output.contains("Verified OK"))
        }
        try folder.require(["dgst", "-\(hash.name)"] + options + ["-sign", folder.path("key.pem"),
                            "-out", folder.path("theirs"), folder.path("message")])
        let theirs = try folder.read("theirs")
        #expect(SecKeyCalls.verify(publicKey, Self.pss(hash.name, message: true), Self.message, theirs) == (true, nil))
        #expect(SecKeyCalls.verify(publicKey, Self.pss(hash.name, message: false), Self.digest(hash.name, Self.message), theirs) == (true, nil))
        #expect(SecKeyCalls.verify(publicKey, Self.pss(hash.name, message: true), Self.message + Data([0]), theirs) == (false, -67808))
    }

    // Rule: CryptoExtras, used directly, accepts SecKey's PKCS #1 v1.5 and PSS signatures of
    // SecKeyCreateRandomKey's keys.
    @Test("CryptoExtras verifies SecKey's signatures of a generated key")
    func cryptoExtrasVerifies() throws {
        let key = try SecKeyCalls.randomKey(type: kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try _RSA.Signing.PublicKey(derRepresentation: SecKeyCalls.external(SecKeyCalls.publicKey(key)))
        let pkcs1 = try SecKeyCalls.sign(key, .rsaSignatureMessagePKCS1v15SHA256, Self.message)
        #expect(publicKey.isValidSignature(.init(rawRepresentation: pkcs1), for: SHA256.hash(data: Self.message), padding: .insecurePKCS1v1_5))
        let pss = try SecKeyCalls.sign(key, .rsaSignatureMessagePSSSHA256, Self.message)
        #expect(publicKey.isValidSignature(.init(rawRepresentation: pss), for: SHA256.hash(data: Self.message), padding: .PSS))
    }

    // Rule: OAEP with every SHA size: what SecKey encrypts `openssl pkeyutl -decrypt` reads
    // back, and what openssl encrypts SecKey decrypts.
    @Test("OAEP encryption crosses with openssl both ways", arguments: hashes.map(\.name))
    func oaepWithOpenSSL(hash: String) throws {
        let folder = try OpenSSLFolder()
        let key = try Self.opensslKey(in: folder)
        let publicKey = try SecKeyCalls.publicKey(key)
        let secret = Data("a secret for \(hash)".utf8)
        let options = ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:\(hash)", "-pkeyopt", "rsa_mgf1_md:\(hash)"]
        let (ciphertext, status) = SecKeyCalls.encrypt(publicKey, Self.oaep(hash), secret)
        #expect(status == nil && ciphertext?.count == 256)
        try folder.write(try #require(ciphertext), "ciphertext")
        try folder.require(["pkeyutl", "-decrypt", "-inkey", folder.path("key.pem"), "-in", folder.path("ciphertext"),
                            "-out", folder.path("plaintext")] + options)
        #expect(try folder.read("plaintext") == secret)
        try folder.write(secret, "secret")
        try folder.require(["pkeyutl", "-encrypt", "-pubin", "-inkey", folder.path("pub.pem"), "-in", folder.path("secret"),
                            "-out", folder.path("theirs")] + options)
        #expect(SecKeyCalls.decrypt(key, Self.oaep(hash), try folder.read("theirs")).0 == secret)
    }

    // Rule: PKCS #1 v1.5 and raw encryption cross with openssl both ways.
    @Test("PKCS #1 v1.5 and raw encryption cross with openssl")
    func pkcs1AndRawWithOpenSSL() throws {
        let folder = try OpenSSLFolder()
        let key = try Self.opensslKey(in: folder)
        let publicKey = try SecKeyCalls.publicKey(key)
        let secret = Data("pkcs1 secret".utf8)
        try folder.write(try #require(SecKeyCalls.encrypt(publicKey, .rsaEncryptionPKCS1, secret).0), "ciphertext")
        try folder.require(["pkeyutl", "-decrypt", "-inkey", folder.path("key.pem"), "-in", folder.path("ciphertext"),
                            "-out", folder.path("plaintext"), "-pkeyopt", "rsa_padding_mode:pkcs1"])
        #expect(try folder.read("plaintext") == secret)
        try folder.write(secret, "secret")
        try folder.require(["pkeyutl", "-encrypt", "-pubin", "-inkey", folder.path("pub.pem"), "-in", folder.path("secret"),
                            "-out", folder.path("theirs"), "-pkeyopt", "rsa_padding_mode:pkcs1"])
        #expect(SecKeyCalls.decrypt(key, .rsaEncryptionPKCS1, try folder.read("theirs")).0 == secret)
        // Raw: a block below the modulus, encrypted by openssl with no padding.
        let block = Data([0x00]) + Data((1...255).map { UInt8($0) })
        try folder.write(block, "block")
        try folder.require(["pkeyutl", "-encrypt", "-pubin", "-inkey", folder.path("pub.pem"), "-in", folder.path("block"),
                            "-out", folder.path("rawtheirs"), "-pkeyopt", "rsa_padding_mode:none"])
        let rawTheirs = try folder.read("rawtheirs")
        #expect(SecKeyCalls.encrypt(publicKey, .rsaEncryptionRaw, block).0 == rawTheirs)
        #expect(SecKeyCalls.decrypt(key, .rsaEncryptionRaw, rawTheirs).0 == block)
    }

    // Rule (Apple): plaintext longer than the padding allows, ciphertext of the wrong length
    // or not made with the key, and digests of the wrong length are errSecParam; what the
    // key cannot do is errSecUnimplemented.
    @Test("Bad input is errSecParam; unsupported algorithms are errSecUnimplemented")
    func badInput() throws {
        let key = try SecKeyCalls.randomKey(type: kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try SecKeyCalls.publicKey(key)
        #expect(SecKeyCalls.encrypt(publicKey, .rsaEncryptionOAEPSHA256, Data(count: 256 - 66 + 1)).1 == -50)
        #expect(SecKeyCalls.encrypt(publicKey, .rsaEncryptionOAEPSHA256, Data(count: 256 - 66)).1 == nil)
        #expect(SecKeyCalls.encrypt(publicKey, .rsaEncryptionPKCS1, Data(count: 246)).1 == -50)
        #expect(SecKeyCalls.encrypt(publicKey, .rsaEncryptionRaw, Data(repeating: 0xFF, count: 256)).1 == -50)
        #expect(SecKeyCalls.decrypt(key, .rsaEncryptionOAEPSHA256, Data(count: 255)).1 == -50)
        var ciphertext = try #require(SecKeyCalls.encrypt(publicKey, .rsaEncryptionOAEPSHA256, Self.message).0)
        ciphertext[100] ^= 1
        #expect(SecKeyCalls.decrypt(key, .rsaEncryptionOAEPSHA256, ciphertext) == (nil, -50))
        #expect(SecKeyCalls.decrypt(key, .rsaEncryptionOAEPSHA1, try #require(SecKeyCalls.encrypt(publicKey, .rsaEncryptionOAEPSHA256, Self.message).0)).1 == -50)
        #expect(SecKeyCalls.signingStatus(key, .rsaSignatureDigestPKCS1v15SHA256, Data(count: 20)) == -50)
        #expect(SecKeyCalls.signingStatus(key, .rsaSignatureRaw, Data(count: 257)) == -50)
        #expect(SecKeyCalls.signingStatus(key, .ecdsaSignatureMessageX962SHA256, Self.message) == -4)
        #expect(SecKeyCalls.encrypt(publicKey, .rsaEncryptionOAEPSHA256AESGCM, Self.message).1 == -4)
        #expect(SecKeyCalls.decrypt(publicKey, .rsaEncryptionOAEPSHA256, Data(count: 256)).1 == -4)
        #expect(SecKeyIsAlgorithmSupported(publicKey, .encrypt, .rsaEncryptionOAEPSHA512))
        #expect(!SecKeyIsAlgorithmSupported(publicKey, .decrypt, .rsaEncryptionOAEPSHA512))
        #expect(SecKeyIsAlgorithmSupported(key, .sign, .rsaSignatureRaw))
    }

    // Rule (Apple, SecKeyRawSign/SecKeyEncrypt): the legacy calls run the same algorithms
    // (PKCS1SHA256 → rsaSignatureDigestPKCS1v15SHA256, PKCS1 → rsaEncryptionPKCS1); a buffer
    // too small is errSecParam; a bad signature is errSSLCrypto (-9809), the legacy status that
    // SecKey.m's SecKeyPerformLegacyOperation keeps.
    @Test("Legacy RSA calls match the modern ones and openssl")
    func legacyCalls() throws {
        let folder = try OpenSSLFolder()
        let key = try Self.opensslKey(in: folder)
        let publicKey = try SecKeyCalls.publicKey(key)
        try folder.write(Self.message, "message")
        try folder.require(["dgst", "-sha256", "-sign", folder.path("key.pem"), "-out", folder.path("signature"), folder.path("message")])
        let expected = [UInt8](try folder.read("signature"))
        let digest = [UInt8](SHA256.hash(data: Self.message))
        var signature = [UInt8](repeating: 0, count: 256)
        var length = signature.count
        #expect(SecKeyRawSign(key, .PKCS1SHA256, digest, digest.count, &signature, &length) == errSecSuccess)
        #expect(signature == expected && length == 256)
        #expect(SecKeyRawVerify(publicKey, .PKCS1SHA256, digest, digest.count, signature, length) == errSecSuccess)
        signature[0] ^= 1
        #expect(SecKeyRawVerify(publicKey, .PKCS1SHA256, digest, digest.count, signature, length) == errSSLCrypto)
        var short = [UInt8](repeating: 0, count: 255)
        var shortLength = short.count
        #expect(SecKeyRawSign(key, .PKCS1SHA256, digest, digest.count, &short, &shortLength) == errSecParam)
        #expect(SecKeyRawSign(key, .PKCS1MD5, digest, 16, &signature, &length) == errSecParam)

        let secret = [UInt8]("legacy secret".utf8)
        var ciphertext = [UInt8](repeating: 0, count: 256)
        var ciphertextLength = ciphertext.count
        #expect(SecKeyEncrypt(publicKey, .PKCS1, secret, secret.count, &ciphertext, &ciphertextLength) == errSecSuccess)
        try folder.write(Data(ciphertext.prefix(ciphertextLength)), "ciphertext")
        try folder.require(["pkeyutl", "-decrypt", "-inkey", folder.path("key.pem"), "-in", folder.path("ciphertext"),
                            "-out", folder.path("plaintext"), "-pkeyopt", "rsa_padding_mode:pkcs1"])
        #expect(try folder.read("plaintext") == Data(secret))
        var plaintext = [UInt8](repeating: 0, count: 256)
        var plaintextLength = plaintext.count
        #expect(SecKeyDecrypt(key, .OAEP, ciphertext, ciphertextLength, &plaintext, &plaintextLength) == errSecParam)
        #expect(SecKeyDecrypt(key, .PKCS1, ciphertext, ciphertextLength, &plaintext, &plaintextLength) == errSecSuccess)
        #expect(Array(plaintext.prefix(plaintextLength)) == secret)
    }
}
