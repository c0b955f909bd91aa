import Foundation

/// Encrypts data with a public key.
///
/// RSA keys support `rsaEncryptionRaw` (at most the block size, and below the modulus),
/// `rsaEncryptionPKCS1` (at most the block size less 11 bytes) and `rsaEncryptionOAEPSHA1`,
/// `…SHA224`, `…SHA256`, `…SHA384`, `…SHA512` (at most the block size less twice the hash's
/// size less 2). The `…AESGCM` variants are not supported.
///
/// - Parameters:
///   - key: The public key.
///   - algorithm: The encryption algorithm.
///   - plaintext: The data.
///   - error: Set on failure: errSecUnimplemented when the key cannot encrypt with the
///     algorithm, errSecParam when the data is too long for it.
/// - Returns: The ciphertext, as long as the key's block size for RSA; nil on failure.
@discardableResult
public func SecKeyCreateEncryptedData(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: CFData,
                                      _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    KeyFailure.returning(errorTo: error) { () throws(KeyFailure) -> CFData in
        try KeyEncryption.encrypt(Data(copying: plaintext), with: key.material, algorithm: algorithm) as NSData
    }
}

/// Decrypts data with a private key.
///
/// - Parameters:
///   - key: The private key.
///   - algorithm: The algorithm the data was encrypted with (see
///     ``SecKeyCreateEncryptedData(_:_:_:_:)``).
///   - ciphertext: The data, as long as the key's block size for RSA.
///   - error: Set on failure: errSecUnimplemented when the key cannot decrypt with the
///     algorithm, errSecParam when the ciphertext is not one the key made with it; for a
///     Secure Enclave-style key whose access control needs the user, the status of proving
///     their presence.
/// - Returns: The plaintext, or nil on failure.
@discardableResult
public func SecKeyCreateDecryptedData(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: CFData,
                                      _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    KeyFailure.returning(errorTo: error) { () throws(KeyFailure) -> CFData in
        let material = try key.materialForPrivateUse(.decrypt, algorithm)
        return try KeyEncryption.decrypt(Data(copying: ciphertext), with: material, algorithm: algorithm) as NSData
    }
}
