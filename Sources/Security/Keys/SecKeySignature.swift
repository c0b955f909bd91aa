import Foundation

/// Signs data with a private key.
///
/// ```swift
/// var error: Unmanaged<CFError>?
/// guard let signature = SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256,
///                                             message as CFData, &error) as Data? else {
///     throw error!.takeRetainedValue() as Error
/// }
/// ```
///
/// - Parameters:
///   - key: The private key.
///   - algorithm: The signature algorithm. The `…Message…` algorithms hash the data; the
///     `…Digest…` ones sign a digest the caller computed, which must be as long as the
///     hash's output (errSecParam otherwise). ECDSA and RSA PKCS #1 v1.5 and PSS with SHA-1,
///     SHA-224, SHA-256, SHA-384 and SHA-512 are supported.
///   - dataToSign: The message or digest.
///   - error: Set on failure: errSecUnimplemented when the key cannot sign with the
///     algorithm, errSecParam when the data does not fit it; for a Secure Enclave-style key
///     whose access control needs the user, the status of proving their presence
///     (errSecAuthFailed, errSecUserCanceled, errSecInteractionNotAllowed).
/// - Returns: The signature, or nil on failure.
@discardableResult
public func SecKeyCreateSignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    KeyFailure.returning(errorTo: error) { () throws(KeyFailure) -> CFData in
        let material = try key.materialForPrivateUse(.sign, algorithm)
        return try KeySignature.sign(Data(copying: dataToSign), with: material, algorithm: algorithm) as NSData
    }
}

/// Checks a signature with a public key.
///
/// - Parameters:
///   - key: The public key.
///   - algorithm: The algorithm the signature was made with (see
///     ``SecKeyCreateSignature(_:_:_:_:)``).
///   - signedData: The message or digest that was signed.
///   - signature: The signature.
///   - error: Set when the result is false: errSecVerifyFailed when the signature does not
///     match, errSecUnimplemented or errSecParam when the key, algorithm or data do not fit.
/// - Returns: True when the signature is the key's signature of the data.
@discardableResult
public func SecKeyVerifySignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData,
                                  _ signature: CFData,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> Bool {
    KeyFailure.returning(errorTo: error) { () throws(KeyFailure) in
        try KeySignature.verify(Data(copying: signature), of: Data(copying: signedData), with: key.material, algorithm: algorithm)
    } != nil
}
