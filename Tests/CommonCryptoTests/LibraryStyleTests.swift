import CommonCrypto
import Foundation
import Testing

// Code written as the libraries that call CommonCrypto write it (their call shapes, types and
// conversions), to show it compiles against this module and gives the results it gives on
// Apple platforms.

/// SwiftyRSA's digests for signing: one-shot calls on `Data`'s bytes, the digest type chosen
/// by its length and function.
private enum SwiftyRSAStyleDigest {
    case sha1, sha224, sha256, sha384, sha512

    var length: Int32 {
        switch self {
        case .sha1: return CC_SHA1_DIGEST_LENGTH
        case .sha224: return CC_SHA224_DIGEST_LENGTH
        case .sha256: return CC_SHA256_DIGEST_LENGTH
        case .sha384: return CC_SHA384_DIGEST_LENGTH
        case .sha512: return CC_SHA512_DIGEST_LENGTH
        }
    }

    var function: (UnsafeRawPointer?, UInt32, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>? {
        switch self {
        case .sha1: return CC_SHA1
        case .sha224: return CC_SHA224
        case .sha256: return CC_SHA256
        case .sha384: return CC_SHA384
        case .sha512: return CC_SHA512
        }
    }

    func digest(_ data: Data) -> Data {
        var digest = [UInt8](repeating: 0, count: Int(length))
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            _ = function(bytes.baseAddress, CC_LONG(data.count), &digest)
        }
        return Data(digest)
    }
}

/// JOSESwift's AES-CBC content encryption, HMAC and key wrap, in its shape.
private enum JOSESwiftStyle {
    struct CryptoError: Error { let status: CCCryptorStatus }

    static func aesEncrypt(_ plaintext: Data, encryptionKey: Data, initializationVector: Data) throws -> Data {
        let dataLength = plaintext.count
        let cryptLength = size_t(dataLength + kCCBlockSizeAES128)
        var cipherData = Data(count: cryptLength)
        let keyLength = size_t(kCCKeySizeAES128)
        let options = CCOptions(kCCOptionPKCS7Padding)
        var numBytesEncrypted: size_t = 0
        let cryptStatus = cipherData.withUnsafeMutableBytes { cipherBytes in
            plaintext.withUnsafeBytes { dataBytes in
                initializationVector.withUnsafeBytes { ivBytes in
                    encryptionKey.withUnsafeBytes { keyBytes in
                        CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), options, keyBytes.baseAddress,
                                keyLength, ivBytes.baseAddress, dataBytes.baseAddress, dataLength,
                                cipherBytes.baseAddress, cryptLength, &numBytesEncrypted)
                    }
                }
            }
        }
        guard UInt32(cryptStatus) == UInt32(kCCSuccess) else { throw CryptoError(status: cryptStatus) }
        cipherData.removeSubrange(numBytesEncrypted..<cipherData.count)
        return cipherData
    }

    static func aesDecrypt(_ cipherText: Data, decryptionKey: Data, initializationVector: Data) throws -> Data {
        let dataLength = cipherText.count
        let cryptLength = size_t(dataLength + kCCBlockSizeAES128)
        var plainData = Data(count: cryptLength)
        var numBytesDecrypted: size_t = 0
        let cryptStatus = plainData.withUnsafeMutableBytes { plainBytes in
            cipherText.withUnsafeBytes { dataBytes in
                initializationVector.withUnsafeBytes { ivBytes in
                    decryptionKey.withUnsafeBytes { keyBytes in
                        CCCrypt(CCOperation(kCCDecrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                                keyBytes.baseAddress, decryptionKey.count, ivBytes.baseAddress, dataBytes.baseAddress,
                                dataLength, plainBytes.baseAddress, cryptLength, &numBytesDecrypted)
                    }
                }
            }
        }
        guard cryptStatus == kCCSuccess else { throw CryptoError(status: cryptStatus) }
        plainData.removeSubrange(numBytesDecrypted..<plainData.count)
        return plainData
    }

    static func hmac(_ input: Data, key: Data) -> Data {
        let outputLength = Int(CC_SHA256_DIGEST_LENGTH)
        let hmacOutData = UnsafeMutablePointer<UInt8>.allocate(capacity: outputLength)
        defer { hmacOutData.deallocate() }
        input.withUnsafeBytes { inputBytes in
            key.withUnsafeBytes { keyBytes in
                CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), keyBytes.baseAddress, key.count, inputBytes.baseAddress,
                       input.count, hmacOutData)
            }
        }
        return Data(bytes: hmacOutData, count: outputLength)
    }

    static func wrap(rawKey: Data, keyEncryptionKey kek: Data) throws -> Data {
        let alg = CCWrappingAlgorithm(kCCWRAPAES)
        var wrappedKeyLength: size_t = CCSymmetricWrappedSize(alg, rawKey.count)
        var wrappedKey = Data(count: wrappedKeyLength)
        let status = wrappedKey.withUnsafeMutableBytes { wrappedKeyBytes in
            rawKey.withUnsafeBytes { rawKeyBytes in
                kek.withUnsafeBytes { kekBytes in
                    CCSymmetricKeyWrap(alg, CCrfc3394_iv, CCrfc3394_ivLen,
                                       kekBytes.bindMemory(to: UInt8.self).baseAddress, kek.count,
                                       rawKeyBytes.bindMemory(to: UInt8.self).baseAddress, rawKey.count,
                                       wrappedKeyBytes.bindMemory(to: UInt8.self).baseAddress, &wrappedKeyLength)
                }
            }
        }
        guard status == kCCSuccess else { throw CryptoError(status: status) }
        return wrappedKey
    }

    static func unwrap(wrappedKey: Data, keyEncryptionKey kek: Data) throws -> Data {
        let alg = CCWrappingAlgorithm(kCCWRAPAES)
        var rawKeyLength: size_t = CCSymmetricUnwrappedSize(alg, wrappedKey.count)
        var rawKey = Data(count: rawKeyLength)
        let status = rawKey.withUnsafeMutableBytes { rawKeyBytes in
            wrappedKey.withUnsafeBytes { wrappedKeyBytes in
                kek.withUnsafeBytes { kekBytes in
                    CCSymmetricKeyUnwrap(alg, CCrfc3394_iv, CCrfc3394_ivLen,
                                         kekBytes.bindMemory(to: UInt8.self).baseAddress, kek.count,
                                         wrappedKeyBytes.bindMemory(to: UInt8.self).baseAddress, wrappedKey.count,
                                         rawKeyBytes.bindMemory(to: UInt8.self).baseAddress, &rawKeyLength)
                }
            }
        }
        guard status == kCCSuccess else { throw CryptoError(status: status) }
        return rawKey
    }
}

/// SecureDefaults' key from a password (PBKDF2-SHA-256) and AES-256-CBC with a random IV.
private enum SecureDefaultsStyle {
    static func key(password: String, salt: Data) -> Data? {
        var derivedKeyData = Data(repeating: 0, count: kCCKeySizeAES256)
        let count = derivedKeyData.count
        let derivationStatus = derivedKeyData.withUnsafeMutableBytes { derivedKeyBytes in
            salt.withUnsafeBytes { saltBytes in
                CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count,
                                     saltBytes.bindMemory(to: UInt8.self).baseAddress, salt.count,
                                     CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 10_000,
                                     derivedKeyBytes.bindMemory(to: UInt8.self).baseAddress, count)
            }
        }
        return derivationStatus == kCCSuccess ? derivedKeyData : nil
    }

    static func randomIV() -> Data {
        var iv = Data(count: kCCBlockSizeAES128)
        let result = iv.withUnsafeMutableBytes { CCRandomGenerateBytes($0.baseAddress, kCCBlockSizeAES128) }
        precondition(result == CCRNGStatus(kCCSuccess))
        return iv
    }

    static func crypt(_ operation: Int, _ data: Data, key: Data, iv: Data) -> Data? {
        let outputLength = data.count + kCCBlockSizeAES128
        var output = Data(count: outputLength)
        var bytesMoved = 0
        let status = output.withUnsafeMutableBytes { outputBytes in
            data.withUnsafeBytes { dataBytes in
                key.withUnsafeBytes { keyBytes in
                    iv.withUnsafeBytes { ivBytes in
                        CCCrypt(CCOperation(operation), CCAlgorithm(kCCAlgorithmAES128), CCOptions(kCCOptionPKCS7Padding),
                                keyBytes.baseAddress, kCCKeySizeAES256, ivBytes.baseAddress, dataBytes.baseAddress,
                                data.count, outputBytes.baseAddress, outputLength, &bytesMoved)
                    }
                }
            }
        }
        guard status == CCCryptorStatus(kCCSuccess) else { return nil }
        return output.prefix(bytesMoved)
    }
}

/// Heimdall's hybrid encryption: an AES key used with a null IV through `NSData`'s bytes, and
/// its message digest for signing.
private enum HeimdallStyle {
    static func encrypt(_ data: NSData, aesKey: NSData) -> NSData? {
        let encryptedData = NSMutableData(length: data.length + kCCBlockSizeAES128)!
        var encryptedLength: Int = 0
        let result = CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES128), CCOptions(kCCOptionPKCS7Padding),
                             aesKey.bytes, aesKey.length, nil, data.bytes, data.length, encryptedData.mutableBytes,
                             encryptedData.length, &encryptedLength)
        guard result == CCCryptorStatus(kCCSuccess) else { return nil }
        encryptedData.length = encryptedLength
        return encryptedData
    }

    static func decrypt(_ data: NSData, aesKey: NSData) -> NSData? {
        let decryptedData = NSMutableData(length: data.length + kCCBlockSizeAES128)!
        var decryptedLength: Int = 0
        let result = CCCrypt(CCOperation(kCCDecrypt), CCAlgorithm(kCCAlgorithmAES128), CCOptions(kCCOptionPKCS7Padding),
                             aesKey.bytes, aesKey.length, nil, data.bytes, data.length, decryptedData.mutableBytes,
                             decryptedData.length, &decryptedLength)
        guard result == CCCryptorStatus(kCCSuccess) else { return nil }
        decryptedData.length = decryptedLength
        return decryptedData
    }

    static func digest(_ data: NSData) -> [UInt8] {
        var hash = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
        CC_SHA256(data.bytes, CC_LONG(data.length), &hash)
        return hash
    }
}

/// Heimdall's and the common snippets' hashing: a context, Init, Update, Final, on `NSData`
/// and on memory allocated for the context.
private enum SnippetStyle {
    static func sha256(_ data: Data) -> Data {
        var context = CC_SHA256_CTX()
        CC_SHA256_Init(&context)
        let nsData = data as NSData
        CC_SHA256_Update(&context, nsData.bytes, CC_LONG(nsData.length))
        var digest = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
        CC_SHA256_Final(&digest, &context)
        return Data(digest)
    }

    static func md5(_ string: String) -> String {
        let context = UnsafeMutablePointer<CC_MD5_CTX>.allocate(capacity: 1)
        var digest = [UInt8](repeating: 0, count: Int(CC_MD5_DIGEST_LENGTH))
        CC_MD5_Init(context)
        CC_MD5_Update(context, string, CC_LONG(string.lengthOfBytes(using: .utf8)))
        CC_MD5_Final(&digest, context)
        context.deallocate()
        return digest.map { String(format: "%02hhx", $0) }.joined()
    }

    static func hmacSHA1(_ string: String, key: String) -> String {
        let str = string.cString(using: .utf8)
        let strLen = Int(string.lengthOfBytes(using: .utf8))
        let digestLen = Int(CC_SHA1_DIGEST_LENGTH)
        let result = UnsafeMutablePointer<CUnsignedChar>.allocate(capacity: digestLen)
        let keyStr = key.cString(using: .utf8)
        let keyLen = Int(key.lengthOfBytes(using: .utf8))
        CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA1), keyStr!, keyLen, str!, strLen, result)
        let digest = (0..<digestLen).map { String(format: "%02x", result[$0]) }.joined()
        result.deallocate()
        return digest
    }

    /// A streaming cryptor in a CryptoSwift-like wrapper: create, update per chunk, final, release.
    static func streamEncrypt(_ chunks: [Data], key: Data, iv: Data) -> Data? {
        var cryptorRef: CCCryptorRef?
        let created = key.withUnsafeBytes { keyBytes in
            iv.withUnsafeBytes { ivBytes in
                CCCryptorCreate(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                                keyBytes.baseAddress, key.count, ivBytes.baseAddress, &cryptorRef)
            }
        }
        guard created == kCCSuccess, let cryptor = cryptorRef else { return nil }
        defer { CCCryptorRelease(cryptor) }
        var result = Data()
        for chunk in chunks {
            var buffer = [UInt8](repeating: 0, count: CCCryptorGetOutputLength(cryptor, chunk.count, false))
            var moved = 0
            let status = chunk.withUnsafeBytes {
                CCCryptorUpdate(cryptor, $0.baseAddress, chunk.count, &buffer, buffer.count, &moved)
            }
            guard status == kCCSuccess else { return nil }
            result.append(contentsOf: buffer[..<moved])
        }
        var buffer = [UInt8](repeating: 0, count: CCCryptorGetOutputLength(cryptor, 0, true))
        var moved = 0
        guard CCCryptorFinal(cryptor, &buffer, buffer.count, &moved) == kCCSuccess else { return nil }
        result.append(contentsOf: buffer[..<moved])
        return result
    }
}

@Suite struct LibraryStyleTests {
    @Test func swiftyRSADigests() throws {
        let message = Data(randomBytes(300))
        let cases: [(SwiftyRSAStyleDigest, String)] = [
            (.sha1, "sha1"), (.sha224, "sha224"), (.sha256, "sha256"), (.sha384, "sha384"), (.sha512, "sha512"),
        ]
        for (digest, name) in cases {
            #expect([UInt8](digest.digest(message)) == (try OpenSSL.run(["dgst", "-\(name)", "-binary"], input: [UInt8](message))))
        }
    }

    /// JOSESwift's A128CBC-HS256 pieces: RFC 7518 section 5.2.2.1's encryption key, IV and
    /// plaintext give its ciphertext; the HMAC and key wrap match their RFCs' values.
    @Test func joseSwiftCalls() throws {
        let encKey = Data(hex("101112131415161718191a1b1c1d1e1f"))
        let iv = Data(hex("1af38c2dc2b96ffdd86694092341bc04"))
        let plaintext = Data(("A cipher system must not be required to be secret, and it must be able to fall into the "
            + "hands of the enemy without inconvenience").utf8)
        let ciphertext = try JOSESwiftStyle.aesEncrypt(plaintext, encryptionKey: encKey, initializationVector: iv)
        #expect([UInt8](ciphertext) == hex("""
            c80edfa32ddf39d5ef00c0b468834279a2e46a1b8049f792f76bfe54b903a9c9a94ac9b47ad2655c5f10f9aef71427e2fc6f
            9b3f399a221489f16362c703233609d45ac69864e3321cf82935ac4096c86e133314c54019e8ca7980dfa4b9cf1b384c486f3a
            54c51078158ee5d79de59fbd34d848b3d69550a67646344427ade54b8851ffb598f7f80074b9473c82e2db
            """))
        #expect(try JOSESwiftStyle.aesDecrypt(ciphertext, decryptionKey: encKey, initializationVector: iv) == plaintext)
        #expect(throws: JOSESwiftStyle.CryptoError.self) {
            try JOSESwiftStyle.aesDecrypt(ciphertext.dropLast(), decryptionKey: encKey, initializationVector: iv)
        }
        #expect([UInt8](JOSESwiftStyle.hmac(Data("what do ya want for nothing?".utf8), key: Data("Jefe".utf8)))
            == hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"))
        let kek = Data(hex("000102030405060708090A0B0C0D0E0F"))
        let wrapped = try JOSESwiftStyle.wrap(rawKey: Data(hex("00112233445566778899AABBCCDDEEFF")), keyEncryptionKey: kek)
        #expect([UInt8](wrapped) == hex("1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5"))
        #expect([UInt8](try JOSESwiftStyle.unwrap(wrappedKey: wrapped, keyEncryptionKey: kek))
            == hex("00112233445566778899AABBCCDDEEFF"))
    }

    @Test func secureDefaultsCalls() throws {
        let salt = Data(randomBytes(16))
        let key = try #require(SecureDefaultsStyle.key(password: "correct horse", salt: salt))
        let expectedKey = try OpenSSL.run([
            "kdf", "-keylen", "32", "-kdfopt", "digest:SHA256", "-kdfopt", "pass:correct horse",
            "-kdfopt", "hexsalt:\(hex([UInt8](salt)))", "-kdfopt", "iter:10000", "PBKDF2",
        ])
        #expect([UInt8](key) == expectedKey)
        let iv = SecureDefaultsStyle.randomIV()
        let secret = Data("a value kept in defaults".utf8)
        let encrypted = try #require(SecureDefaultsStyle.crypt(kCCEncrypt, secret, key: key, iv: iv))
        let expected = try OpenSSL.run(["enc", "-aes-256-cbc", "-K", hex([UInt8](key)), "-iv", hex([UInt8](iv))],
                                       input: [UInt8](secret))
        #expect([UInt8](encrypted) == expected)
        #expect(SecureDefaultsStyle.crypt(kCCDecrypt, encrypted, key: key, iv: iv) == secret)
    }

    /// A null IV is a block of zeros, as openssl's all-zero -iv.
    @Test func heimdallCalls() throws {
        let key = randomBytes(32), message = randomBytes(77)
        let encrypted = try #require(HeimdallStyle.encrypt(Data(message) as NSData, aesKey: Data(key) as NSData))
        let expected = try OpenSSL.run(["enc", "-aes-256-cbc", "-K", hex(key), "-iv", String(repeating: "0", count: 32)],
                                       input: message)
        #expect([UInt8](encrypted as Data) == expected)
        #expect(HeimdallStyle.decrypt(encrypted, aesKey: Data(key) as NSData) == Data(message) as NSData)
        #expect(HeimdallStyle.digest(Data(message) as NSData) == (try OpenSSL.run(["dgst", "-sha256", "-binary"], input: message)))
    }

    @Test func snippetCalls() throws {
        let data = Data(randomBytes(100))
        #expect([UInt8](SnippetStyle.sha256(data)) == (try OpenSSL.run(["dgst", "-sha256", "-binary"], input: [UInt8](data))))
        #expect(SnippetStyle.md5("abc") == "900150983cd24fb0d6963f7d28e17f72")
        #expect(SnippetStyle.hmacSHA1("Hi There", key: String(repeating: "\u{0b}", count: 20))
            == "b617318655057264e28bc0b6fb378c8ef146be00")
        let key = Data(randomBytes(32)), iv = Data(randomBytes(16))
        let chunks = [Data(randomBytes(5)), Data(randomBytes(40)), Data(), Data(randomBytes(16))]
        let streamed = try #require(SnippetStyle.streamEncrypt(chunks, key: key, iv: iv))
        let expected = try OpenSSL.run(["enc", "-aes-256-cbc", "-K", hex([UInt8](key)), "-iv", hex([UInt8](iv))],
                                       input: chunks.flatMap { [UInt8]($0) })
        #expect([UInt8](streamed) == expected)
    }
}
