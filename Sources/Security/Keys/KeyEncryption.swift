import Foundation

/// Encrypting and decrypting with a key's material: the work behind
/// ``SecKeyCreateEncryptedData(_:_:_:_:)``, ``SecKeyCreateDecryptedData(_:_:_:_:)`` and the
/// legacy `SecKeyEncrypt`/`SecKeyDecrypt`.
enum KeyEncryption {
    /// `plaintext` encrypted for the public key.
    static func encrypt(_ plaintext: Data, with key: KeyMaterial, algorithm: SecKeyAlgorithm) throws(KeyFailure) -> Data {
        let scheme = try KeyOperation.scheme(algorithm, .encrypt, key)
        if case .ellipticCurveEncryption = scheme, case .ellipticCurvePublic(let publicKey) = key {
            return try EllipticCurveIntegratedEncryption.encrypt(plaintext, for: publicKey, algorithm: algorithm)
        }
        guard case .rsaEncryption(let padding) = scheme, case .rsaPublic(let publicKey) = key else {
            throw KeyFailure(.unimplemented, "algorithm not supported by the key: \(algorithm.identifier)")
        }
        let size = RSARawOperation.byteCount(bits: publicKey.keySizeInBits)
        let block: Data
        switch padding {
        case .raw:
            guard plaintext.count <= size else {
                throw KeyFailure(.param, "the plaintext is longer than the key's block size (\(size) bytes)")
            }
            block = RSARawOperation.leftPadded(plaintext, to: size)
        case .pkcs1:
            block = try RSAPadding.pkcs1EncryptionBlock(plaintext, size: size)
        case .oaep(let hash):
            block = try RSAPadding.oaepBlock(plaintext, hash: hash, size: size)
        }
        return try RSARawOperation.publicOperation(block, key: publicKey)
    }

    /// `ciphertext` decrypted with the private key. The caller owns the plaintext.
    static func decrypt(_ ciphertext: Data, with key: KeyMaterial, algorithm: SecKeyAlgorithm) throws(KeyFailure) -> Data {
        let scheme = try KeyOperation.scheme(algorithm, .decrypt, key)
        if case .ellipticCurveEncryption = scheme, case .ellipticCurvePrivate(let privateKey) = key {
            return try EllipticCurveIntegratedEncryption.decrypt(ciphertext, with: privateKey, algorithm: algorithm)
        }
        guard case .rsaEncryption(let padding) = scheme, case .rsaPrivate(let privateKey) = key else {
            throw KeyFailure(.unimplemented, "algorithm not supported by the key: \(algorithm.identifier)")
        }
        let size = RSARawOperation.byteCount(bits: privateKey.keySizeInBits)
        guard ciphertext.count == size else {
            throw KeyFailure(.param, "the ciphertext is \(ciphertext.count) bytes; this key's are \(size)")
        }
        var block = try RSARawOperation.privateOperation(ciphertext, key: privateKey)
        defer { block.resetBytes(in: 0..<block.count) }
        switch padding {
        case .raw: return Data(block)
        case .pkcs1: return try RSAPadding.pkcs1EncryptionMessage(block)
        case .oaep(let hash): return try RSAPadding.oaepMessage(block, hash: hash)
        }
    }
}
