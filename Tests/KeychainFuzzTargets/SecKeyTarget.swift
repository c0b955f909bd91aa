import Foundation
import Security

/// SecKey on arbitrary bytes: key data for SecKeyCreateWithData (malformed, or a valid key
/// with bytes changed), then an algorithm and data for sign, verify, encrypt and decrypt.
/// Every call returns a key, a result or an error with a status, never traps; and what one
/// call makes, the matching call accepts: a signature verifies with the public key, a
/// ciphertext decrypts to the plaintext.
enum SecKeyTarget {
    /// Valid keys whose representations the fuzzer changes byte by byte: one per curve
    /// and one RSA-2048 key, made once per process.
    private static let validKeys: [(data: Data, isRSA: Bool)] = {
        var keys: [(Data, Bool)] = []
        for (type, bits) in [(kSecAttrKeyTypeECSECPrimeRandom, 256), (kSecAttrKeyTypeECSECPrimeRandom, 384),
                             (kSecAttrKeyTypeECSECPrimeRandom, 521), (kSecAttrKeyTypeRSA, 2048)] {
            let parameters: [String: Any] = [kSecAttrKeyType as String: type, kSecAttrKeySizeInBits as String: bits]
            guard let key = SecKeyCreateRandomKey(parameters as CFDictionary, nil),
                  let data = SecKeyCopyExternalRepresentation(key, nil) as Data? else {
                fatalError("SecKeyCreateRandomKey failed for a supported type and size")
            }
            keys.append((data, type == kSecAttrKeyTypeRSA))
        }
        return keys
    }()

    private static let algorithms: [SecKeyAlgorithm] = [
        .ecdsaSignatureRFC4754, .ecdsaSignatureDigestX962, .ecdsaSignatureDigestRFC4754,
        .ecdsaSignatureDigestX962SHA1, .ecdsaSignatureDigestX962SHA256, .ecdsaSignatureDigestX962SHA512,
        .ecdsaSignatureMessageX962SHA256, .ecdsaSignatureMessageX962SHA224, .ecdsaSignatureMessageRFC4754SHA384,
        .ecdsaSignatureDigestRFC4754SHA256,
        .rsaSignatureRaw, .rsaSignatureDigestPKCS1v15Raw, .rsaSignatureDigestPKCS1v15SHA1,
        .rsaSignatureDigestPKCS1v15SHA256, .rsaSignatureMessagePKCS1v15SHA512, .rsaSignatureDigestPSSSHA256,
        .rsaSignatureMessagePSSSHA1, .rsaSignatureMessagePSSSHA512,
        .rsaEncryptionRaw, .rsaEncryptionPKCS1, .rsaEncryptionOAEPSHA1, .rsaEncryptionOAEPSHA256,
        .rsaEncryptionOAEPSHA384, .rsaEncryptionOAEPSHA512, .rsaEncryptionOAEPSHA256AESGCM,
        SecKeyAlgorithm(rawValue: "algid:sign:RSA:digest-PSS:SHA256:SHA256:31" as CFString),
    ]

    static func run(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzBytes(bytes)
        var keyData: Data
        let type: CFString
        var isPrivate = input.bool()
        if input.bool() {
            let valid = validKeys[input.choice(validKeys.count)]
            keyData = valid.data
            type = valid.isRSA ? kSecAttrKeyTypeRSA : kSecAttrKeyTypeECSECPrimeRandom
            // Changes: up to three bytes replaced, or the data cut short.
            for _ in 0..<input.choice(4) where !keyData.isEmpty {
                let index = Int(input.uint64() % UInt64(keyData.count))
                keyData[index] = input.byte()
            }
            if input.choice(8) == 0 { keyData = keyData.prefix(Int(input.uint64() % UInt64(keyData.count + 1))) }
            isPrivate = true
        } else {
            keyData = Data(input.run())
            type = input.bool() ? kSecAttrKeyTypeRSA : kSecAttrKeyTypeECSECPrimeRandom
        }
        let attributes: [String: Any] = [kSecAttrKeyType as String: type,
                                         kSecAttrKeyClass as String: isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateWithData(keyData as CFData, attributes as CFDictionary, &error) else {
            expectError(error, "SecKeyCreateWithData")
            return
        }
        _ = SecKeyCopyAttributes(key)
        _ = SecKeyGetBlockSize(key)
        guard let publicKey = SecKeyCopyPublicKey(key) else { fatalError("a key without a public half") }
        let algorithm = algorithms[input.choice(algorithms.count)]
        let data = Data(input.run())
        let other = Data(input.rest())

        error = nil
        if let signature = SecKeyCreateSignature(key, algorithm, data as CFData, &error) {
            guard SecKeyVerifySignature(publicKey, algorithm, data as CFData, signature, nil) else {
                fatalError("a signature SecKey made does not verify with its public key")
            }
        } else {
            expectError(error, "SecKeyCreateSignature")
        }
        error = nil
        if !SecKeyVerifySignature(publicKey, algorithm, data as CFData, other as CFData, &error) {
            expectError(error, "SecKeyVerifySignature")
        }
        error = nil
        if let ciphertext = SecKeyCreateEncryptedData(publicKey, algorithm, data as CFData, &error) {
            if key !== publicKey {
                guard let plaintext = SecKeyCreateDecryptedData(key, algorithm, ciphertext, nil) as Data? else {
                    fatalError("a ciphertext SecKey made does not decrypt with its private key")
                }
                // Raw RSA gives the whole block back, with the zeros in front.
                guard plaintext == data || (algorithm == .rsaEncryptionRaw && plaintext.drop { $0 == 0 } == data.drop { $0 == 0 }) else {
                    fatalError("a decrypted ciphertext is not the plaintext")
                }
            }
        } else {
            expectError(error, "SecKeyCreateEncryptedData")
        }
        error = nil
        if SecKeyCreateDecryptedData(key, algorithm, other as CFData, &error) == nil {
            expectError(error, "SecKeyCreateDecryptedData")
        }
    }

    /// A failed call must say why, with a status.
    private static func expectError(_ error: Unmanaged<CFError>?, _ call: String) {
        guard let error = error?.takeRetainedValue(), (error as Error as NSError).code != 0 else {
            fatalError("\(call) failed without an error status")
        }
    }
}
