import Crypto
import CryptoExtras
import Foundation
import Security
import Testing
import TestSupport

// SwiftyRSA (TakeScoop/SwiftyRSA, Source/SwiftyRSA.swift, ClearMessage.swift,
// EncryptedMessage.swift) calls Security for key pairs, keys from PEM/DER bytes (through
// SecKeyCreateWithData, or on old systems through the keychain), chunked encryption with the
// legacy SecKeyEncrypt/SecKeyDecrypt and `SecPadding`, and digest signatures with
// SecKeyRawSign/SecKeyRawVerify. The functions below make the same calls with the same
// shapes (`[CFString: Any]` dictionaries, `[UInt8]` buffers passed with `&` and `Int`
// lengths), written here from reading that code. CommonCrypto is not ours to provide: its
// Data+SHA.swift (NSData+SHA.m in older releases) hashes with CC_SHA1/CC_SHA256...; here
// swift-crypto stands in.

enum SwiftyRSAStyleError: Error, Equatable {
    case keyCreateFailed
    case keyAddFailed(OSStatus)
    case keyCopyFailed(OSStatus)
    case keyGenerationFailed
    case keyRepresentationFailed
    case chunkEncryptFailed(index: Int)
    case chunkDecryptFailed(index: Int)
    case signatureCreateFailed(OSStatus)
    case signatureVerifyFailed(OSStatus)
}

enum SwiftyRSAStyle {
    /// SwiftyRSA's `public typealias Padding = SecPadding`.
    typealias Padding = SecPadding

    /// SwiftyRSA.isValidKeyReference: the attributes as `[CFString: Any]`, type and class read
    /// `as? String`.
    static func isValidKeyReference(_ reference: SecKey, forClass requiredClass: CFString) -> Bool {
        let attributes = SecKeyCopyAttributes(reference) as? [CFString: Any]
        guard let keyType = attributes?[kSecAttrKeyType] as? String, let keyClass = attributes?[kSecAttrKeyClass] as? String else {
            return false
        }
        return keyType == (kSecAttrKeyTypeRSA as String) && keyClass == (requiredClass as String)
    }

    /// SwiftyRSA.generateRSAKeyPair: the private half permanent under a tag through
    /// `kSecPrivateKeyAttrs`, the public half from SecKeyCopyPublicKey.
    static func generateRSAKeyPair(sizeInBits size: Int, tag: String) throws -> (privateKey: SecKey, publicKey: SecKey) {
        let tagData = Data(tag.utf8)
        let attributes: [CFString: Any] = [
            kSecAttrKeyType: kSecAttrKeyTypeRSA,
            kSecAttrKeySizeInBits: size,
            kSecPrivateKeyAttrs: [
                kSecAttrIsPermanent: true,
                kSecAttrApplicationTag: tagData,
            ],
        ]
        var error: Unmanaged<CFError>?
        guard let privKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error), let pubKey = SecKeyCopyPublicKey(privKey) else {
            _ = error?.takeRetainedValue()
            throw SwiftyRSAStyleError.keyGenerationFailed
        }
        return (privKey, pubKey)
    }

    /// SwiftyRSA.data(forKeyReference:), current systems: SecKeyCopyExternalRepresentation.
    static func data(forKeyReference reference: SecKey) throws -> Data {
        var error: Unmanaged<CFError>?
        let data = SecKeyCopyExternalRepresentation(reference, &error)
        guard let unwrappedData = data as Data? else {
            _ = error?.takeRetainedValue()
            throw SwiftyRSAStyleError.keyRepresentationFailed
        }
        return unwrappedData
    }

    /// SwiftyRSA.data(forKeyReference:), iOS 8/9: the key added under a temporary tag with
    /// kSecReturnData, then deleted.
    static func dataThroughKeychain(forKeyReference reference: SecKey) throws -> Data {
        let temporaryTag = UUID().uuidString
        let addParams: [CFString: Any] = [
            kSecValueRef: reference,
            kSecReturnData: true,
            kSecClass: kSecClassKey,
            kSecAttrApplicationTag: temporaryTag,
        ]
        var data: AnyObject?
        let addStatus = SecItemAdd(addParams as CFDictionary, &data)
        guard let unwrappedData = data as? Data else {
            throw SwiftyRSAStyleError.keyAddFailed(addStatus)
        }
        let deleteParams: [CFString: Any] = [kSecClass: kSecClassKey, kSecAttrApplicationTag: temporaryTag]
        _ = SecItemDelete(deleteParams as CFDictionary)
        return unwrappedData
    }

    /// SwiftyRSA.addKey, current systems: SecKeyCreateWithData with an `NSNumber` size and a
    /// `kSecReturnPersistentRef` that the call ignores.
    static func addKey(_ keyData: Data, isPublic: Bool) throws -> SecKey {
        let keyDict: [CFString: Any] = [
            kSecAttrKeyType: kSecAttrKeyTypeRSA,
            kSecAttrKeyClass: isPublic ? kSecAttrKeyClassPublic : kSecAttrKeyClassPrivate,
            kSecAttrKeySizeInBits: NSNumber(value: keyData.count * 8),
            kSecReturnPersistentRef: true,
        ]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateWithData(keyData as CFData, keyDict as CFDictionary, &error) else {
            _ = error?.takeRetainedValue()
            throw SwiftyRSAStyleError.keyCreateFailed
        }
        return key
    }

    /// SwiftyRSA.addKey, iOS 9 and earlier: the key's bytes added as kSecValueData with a
    /// persistent reference asked for (and a nil result pointer), then read back by tag
    /// with kSecReturnRef and cast `as! SecKey`.
    static func addKeyThroughKeychain(_ keyData: Data, isPublic: Bool, tag: String) throws -> SecKey {
        let tagData = Data(tag.utf8)
        let keyClass = isPublic ? kSecAttrKeyClassPublic : kSecAttrKeyClassPrivate
        let persistKey = UnsafeMutablePointer<AnyObject?>(mutating: nil)
        let keyAddDict: [CFString: Any] = [
            kSecClass: kSecClassKey,
            kSecAttrApplicationTag: tagData,
            kSecAttrKeyType: kSecAttrKeyTypeRSA,
            kSecValueData: keyData,
            kSecAttrKeyClass: keyClass,
            kSecReturnPersistentRef: true,
            kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock,
        ]
        let addStatus = SecItemAdd(keyAddDict as CFDictionary, persistKey)
        guard addStatus == errSecSuccess || addStatus == errSecDuplicateItem else {
            throw SwiftyRSAStyleError.keyAddFailed(addStatus)
        }
        let keyCopyDict: [CFString: Any] = [
            kSecClass: kSecClassKey,
            kSecAttrApplicationTag: tagData,
            kSecAttrKeyType: kSecAttrKeyTypeRSA,
            kSecAttrKeyClass: keyClass,
            kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock,
            kSecReturnRef: true,
        ]
        var keyRef: AnyObject?
        let copyStatus = SecItemCopyMatching(keyCopyDict as CFDictionary, &keyRef)
        guard let unwrappedKeyRef = keyRef, CFGetTypeID(unwrappedKeyRef) == SecKeyGetTypeID() else {
            throw SwiftyRSAStyleError.keyCopyFailed(copyStatus)
        }
        return unwrappedKeyRef as! SecKey  // checked by its type ID just above
    }

    /// SwiftyRSA.removeKey: SecItemDelete by type and tag, its status ignored.
    static func removeKey(tag: String) {
        let keyRemoveDict: [CFString: Any] = [
            kSecClass: kSecClassKey,
            kSecAttrKeyType: kSecAttrKeyTypeRSA,
            kSecAttrApplicationTag: Data(tag.utf8),
        ]
        SecItemDelete(keyRemoveDict as CFDictionary)
    }

    /// ClearMessage.encrypted(with:padding:): chunks of the padding's limit, each through
    /// SecKeyEncrypt into a block-size `[UInt8]` buffer; `switch padding { case []: ... }`.
    static func encrypted(_ data: Data, with key: SecKey, padding: Padding) throws -> Data {
        let blockSize = SecKeyGetBlockSize(key)
        var maxChunkSize: Int
        switch padding {
        case []:
            maxChunkSize = blockSize
        case .OAEP:
            maxChunkSize = blockSize - 42
        default:
            maxChunkSize = blockSize - 11
        }
        var decryptedDataAsArray = [UInt8](repeating: 0, count: data.count)
        (data as NSData).getBytes(&decryptedDataAsArray, length: data.count)
        var encryptedDataBytes = [UInt8](repeating: 0, count: 0)
        var idx = 0
        while idx < decryptedDataAsArray.count {
            let idxEnd = min(idx + maxChunkSize, decryptedDataAsArray.count)
            let chunkData = [UInt8](decryptedDataAsArray[idx..<idxEnd])
            var encryptedDataBuffer = [UInt8](repeating: 0, count: blockSize)
            var encryptedDataLength = blockSize
            let status = SecKeyEncrypt(key, padding, chunkData, chunkData.count, &encryptedDataBuffer, &encryptedDataLength)
            guard status == noErr else { throw SwiftyRSAStyleError.chunkEncryptFailed(index: idx) }
            encryptedDataBytes += encryptedDataBuffer
            idx += maxChunkSize
        }
        return Data(bytes: encryptedDataBytes, count: encryptedDataBytes.count)
    }

    /// EncryptedMessage.decrypted(with:padding:): block-size chunks through SecKeyDecrypt,
    /// each result cut to the length the call wrote back.
    static func decrypted(_ data: Data, with key: SecKey, padding: Padding) throws -> Data {
        let blockSize = SecKeyGetBlockSize(key)
        var encryptedDataAsArray = [UInt8](repeating: 0, count: data.count)
        (data as NSData).getBytes(&encryptedDataAsArray, length: data.count)
        var decryptedDataBytes = [UInt8](repeating: 0, count: 0)
        var idx = 0
        while idx < encryptedDataAsArray.count {
            let idxEnd = min(idx + blockSize, encryptedDataAsArray.count)
            let chunkData = [UInt8](encryptedDataAsArray[idx..<idxEnd])
            var decryptedDataBuffer = [UInt8](repeating: 0, count: blockSize)
            var decryptedDataLength = blockSize
            let status = SecKeyDecrypt(key, padding, chunkData, idxEnd - idx, &decryptedDataBuffer, &decryptedDataLength)
            guard status == noErr else { throw SwiftyRSAStyleError.chunkDecryptFailed(index: idx) }
            decryptedDataBytes += [UInt8](decryptedDataBuffer[0..<decryptedDataLength])
            idx += blockSize
        }
        return Data(bytes: decryptedDataBytes, count: decryptedDataBytes.count)
    }

    /// ClearMessage.signed(with:digestType:): the SHA-256 digest (SwiftyRSA: CommonCrypto)
    /// signed with SecKeyRawSign and `.PKCS1SHA256`.
    static func signed(_ data: Data, with key: SecKey) throws -> Data {
        let digest = Data(SHA256.hash(data: data))
        let blockSize = SecKeyGetBlockSize(key)
        var digestBytes = [UInt8](repeating: 0, count: digest.count)
        (digest as NSData).getBytes(&digestBytes, length: digest.count)
        var signatureBytes = [UInt8](repeating: 0, count: blockSize)
        var signatureDataLength = blockSize
        let status = SecKeyRawSign(key, .PKCS1SHA256, digestBytes, digestBytes.count, &signatureBytes, &signatureDataLength)
        guard status == noErr else { throw SwiftyRSAStyleError.signatureCreateFailed(status) }
        return Data(bytes: signatureBytes, count: signatureBytes.count)
    }

    /// ClearMessage.verify(with:signature:digestType:): SecKeyRawVerify's errSecSuccess is
    /// true, -9809 (errSSLCrypto) is false, and any other status an error.
    static func verify(_ data: Data, with key: SecKey, signature: Data) throws -> Bool {
        let digestBytes = [UInt8](SHA256.hash(data: data))
        var signatureBytes = [UInt8](repeating: 0, count: signature.count)
        (signature as NSData).getBytes(&signatureBytes, length: signature.count)
        let status = SecKeyRawVerify(key, .PKCS1SHA256, digestBytes, digestBytes.count, signatureBytes, signatureBytes.count)
        if status == errSecSuccess {
            return true
        } else if status == -9809 {
            return false
        } else {
            throw SwiftyRSAStyleError.signatureVerifyFailed(status)
        }
    }
}

/// SwiftyRSA's uses of Security run against this module, checked against CryptoExtras and
/// `openssl`.
@Suite("Third-party usage: SwiftyRSA")
struct SwiftyRSAUsageTests {
    static let message = Data(String(repeating: "SwiftyRSA clear message. ", count: 24).utf8)  // 600 bytes: three chunks

    // Rule (Apple, SecKeyCreateRandomKey): kSecPrivateKeyAttrs' kSecAttrIsPermanent stores the
    // private key under its tag, where a query by tag finds it; its attributes name it RSA and
    // private (as Strings), its public key public.
    @Test("SwiftyRSA.swift: generateRSAKeyPair stores the private key by tag; isValidKeyReference reads type and class as Strings")
    func generatedPair() throws {
        let keychain = PrivateKeychain()
        try keychain.run {
            let tag = "com.example.swiftyrsa.\(UUID().uuidString)"
            let pair = try SwiftyRSAStyle.generateRSAKeyPair(sizeInBits: 2048, tag: tag)
            #expect(SwiftyRSAStyle.isValidKeyReference(pair.privateKey, forClass: kSecAttrKeyClassPrivate))
            #expect(SwiftyRSAStyle.isValidKeyReference(pair.publicKey, forClass: kSecAttrKeyClassPublic))
            #expect(!SwiftyRSAStyle.isValidKeyReference(pair.publicKey, forClass: kSecAttrKeyClassPrivate))

            // The stored key is the generated one: CryptoExtras reads its bytes, and its public
            // key is the one SecKeyCopyPublicKey gave.
            var item: CFTypeRef?
            let query: [CFString: Any] = [kSecClass: kSecClassKey, kSecAttrApplicationTag: Data(tag.utf8), kSecReturnRef: true]
            #expect(SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess)
            let stored = try #require(item as? SecKey)
            let privateBytes = try SwiftyRSAStyle.data(forKeyReference: stored)
            let crypto = try _RSA.Signing.PrivateKey(derRepresentation: privateBytes)
            #expect(crypto.publicKey.pkcs1DERRepresentation == (try SwiftyRSAStyle.data(forKeyReference: pair.publicKey)))

            SwiftyRSAStyle.removeKey(tag: tag)
            #expect(SecItemCopyMatching(query as CFDictionary, &item) == errSecItemNotFound)
        }
    }

    // Rule (SecKey.m, SecKeyCreateWithData): the key's data alone gives its size;
    // kSecAttrKeySizeInBits is never read, so SwiftyRSA's data length in bits (here 9,500 or
    // so for a 2,048-bit private key) is no error, and the attributes report the real size.
    @Test("SwiftyRSA.swift: SecKeyCreateWithData takes the data's length in bits as kSecAttrKeySizeInBits and reports the real size")
    func keySizeFromData() throws {
        let crypto = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        for (data, isPublic) in [(crypto.derRepresentation, false), (crypto.publicKey.pkcs1DERRepresentation, true)] {
            #expect(data.count * 8 != 2048)
            let key = try SwiftyRSAStyle.addKey(data, isPublic: isPublic)
            let attributes = try #require(SecKeyCopyAttributes(key) as? [CFString: Any])
            #expect(attributes[kSecAttrKeySizeInBits] as? Int == 2048)
            #expect(try SwiftyRSAStyle.data(forKeyReference: key) == data)
        }
    }

    // Rule (PKCS #1 v1.5 and OAEP encryption, Apple's SecKeyEncrypt/SecKeyDecrypt): each chunk
    // is a ciphertext of the key's size that another implementation decrypts; the chunks
    // decrypt back to the message.
    @Test("ClearMessage/EncryptedMessage.swift: chunked SecKeyEncrypt (.PKCS1, .OAEP) that openssl and CryptoExtras decrypt")
    func chunkedEncryption() throws {
        let crypto = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        let privateKey = try SwiftyRSAStyle.addKey(crypto.derRepresentation, isPublic: false)
        let publicKey = try SwiftyRSAStyle.addKey(crypto.publicKey.pkcs1DERRepresentation, isPublic: true)

        let oaep = try SwiftyRSAStyle.encrypted(Self.message, with: publicKey, padding: .OAEP)
        #expect(oaep.count == 3 * 256)
        var fromCryptoExtras = Data()
        for start in stride(from: 0, to: oaep.count, by: 256) {
            fromCryptoExtras += try crypto.decrypt(oaep[start..<start + 256], padding: .PKCS1_OAEP)
        }
        #expect(fromCryptoExtras == Self.message)
        #expect(try SwiftyRSAStyle.decrypted(oaep, with: privateKey, padding: .OAEP) == Self.message)

        let pkcs1 = try SwiftyRSAStyle.encrypted(Self.message, with: publicKey, padding: .PKCS1)
        #expect(pkcs1.count == 3 * 256)
        let folder = try OpenSSLFolder()
        try folder.write(Data(crypto.pemRepresentation.utf8), "key.pem")
        try folder.write(pkcs1.prefix(256), "chunk")
        try folder.require(["pkeyutl", "-decrypt", "-inkey", folder.path("key.pem"), "-pkeyopt", "rsa_padding_mode:pkcs1",
                            "-in", folder.path("chunk"), "-out", folder.path("clear")])
        #expect(try folder.read("clear") == Self.message.prefix(245))
        #expect(try SwiftyRSAStyle.decrypted(pkcs1, with: privateKey, padding: .PKCS1) == Self.message)
    }

    // Rule (SecKey.m, SecKeyPerformLegacyOperation): a signature that does not verify is
    // errSSLCrypto (-9809) from the legacy calls, which SwiftyRSA turns into `false`; a good
    // one is a PKCS #1 v1.5 SHA-256 signature that CryptoExtras verifies.
    @Test("ClearMessage.swift: SecKeyRawSign .PKCS1SHA256 verifies with CryptoExtras; a tampered signature is false (-9809), not an error")
    func digestSignatures() throws {
        let crypto = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let privateKey = try SwiftyRSAStyle.addKey(crypto.derRepresentation, isPublic: false)
        let publicKey = try SwiftyRSAStyle.addKey(crypto.publicKey.pkcs1DERRepresentation, isPublic: true)
        let signature = try SwiftyRSAStyle.signed(Self.message, with: privateKey)
        #expect(crypto.publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature),
                                                  for: SHA256.hash(data: Self.message), padding: .insecurePKCS1v1_5))
        #expect(try SwiftyRSAStyle.verify(Self.message, with: publicKey, signature: signature))
        var tampered = signature
        tampered[10] ^= 1
        #expect(try SwiftyRSAStyle.verify(Self.message, with: publicKey, signature: tampered) == false)
        #expect(try SwiftyRSAStyle.verify(Data("another message".utf8), with: publicKey, signature: signature) == false)
    }

    // Rule (Apple, SecItemAdd/SecItemCopyMatching for kSecClassKey): a key added as its bytes
    // (kSecValueData with type and class) comes back by tag as a SecKey that works; a key
    // added by reference with kSecReturnData gives back its external representation.
    @Test("SwiftyRSA.swift, iOS 8/9 paths: keys through the keychain as bytes and by reference")
    func keysThroughKeychain() throws {
        let keychain = PrivateKeychain()
        try keychain.run {
            let crypto = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let tag = "com.example.swiftyrsa.legacy"
            let privateKey = try SwiftyRSAStyle.addKeyThroughKeychain(crypto.derRepresentation, isPublic: false, tag: tag)
            let publicKey = try SwiftyRSAStyle.addKeyThroughKeychain(crypto.publicKey.pkcs1DERRepresentation, isPublic: true,
                                                                     tag: tag + ".public")
            let signature = try SwiftyRSAStyle.signed(Self.message, with: privateKey)
            #expect(crypto.publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature),
                                                      for: SHA256.hash(data: Self.message), padding: .insecurePKCS1v1_5))
            #expect(try SwiftyRSAStyle.verify(Self.message, with: publicKey, signature: signature))
            // Adding the same bytes again is errSecDuplicateItem, which SwiftyRSA accepts.
            #expect(try SwiftyRSAStyle.data(forKeyReference: SwiftyRSAStyle.addKeyThroughKeychain(
                crypto.derRepresentation, isPublic: false, tag: tag)) == crypto.derRepresentation)

            let transient = try SwiftyRSAStyle.addKey(crypto.publicKey.pkcs1DERRepresentation, isPublic: true)
            #expect(try SwiftyRSAStyle.dataThroughKeychain(forKeyReference: transient) == crypto.publicKey.pkcs1DERRepresentation)

            SwiftyRSAStyle.removeKey(tag: tag)
            var item: CFTypeRef?
            let query: [CFString: Any] = [kSecClass: kSecClassKey, kSecAttrApplicationTag: Data(tag.utf8)]
            #expect(SecItemCopyMatching(query as CFDictionary, &item) == errSecItemNotFound)
        }
    }
}
