import Foundation

/// -9809: An underlying cryptographic error was encountered (SecureTransport's status, which
/// the legacy SecKey calls still give for a signature that does not verify).
public let errSSLCrypto: OSStatus = -9809

/// The legacy calls' one mechanism (SecKey.m, SecKeyPerformLegacyOperation): the modern
/// operation on the caller's bytes, its result copied into the caller's buffer. A buffer too
/// small for it is errSecParam, as on Apple platforms; failures give the modern call's status,
/// except that a signature that does not verify is errSSLCrypto, as the legacy calls gave
/// before the modern ones existed (code such as SwiftyRSA tests for -9809 to return false).
enum LegacyOperation {
    static func run(algorithm: SecKeyAlgorithm?, input: UnsafePointer<UInt8>, inputLength: Int,
                    output: UnsafeMutablePointer<UInt8>?, outputLength: UnsafeMutablePointer<Int>?,
                    _ operation: (SecKeyAlgorithm, Data) throws(KeyFailure) -> Data?) -> OSStatus {
        guard let algorithm, inputLength >= 0 else { return errSecParam }
        let data = Data(bytes: input, count: inputLength)
        do {
            guard var result = try operation(algorithm, data) else { return errSecSuccess }
            defer { result.resetBytes(in: 0..<result.count) }
            guard let output, let outputLength, outputLength.pointee >= result.count else {
                return errSecParam
            }
            result.copyBytes(to: output, count: result.count)
            outputLength.pointee = result.count
            return errSecSuccess
        } catch {
            return error.status == errSecVerifyFailed ? errSSLCrypto : error.status
        }
    }
}

/// Signs a digest with a private key (legacy; prefer ``SecKeyCreateSignature(_:_:_:_:)``).
///
/// For RSA keys, `padding` names the digest (`.PKCS1SHA256` …), `.PKCS1` signs the data as
/// given inside PKCS #1 v1.5 padding, and no padding is the raw operation. For
/// elliptic-curve keys the signature is DER, or `r ‖ s` with `.sigRaw`.
///
/// - Returns: errSecSuccess with the signature in `sig` and its length in `sigLen`;
///   errSecParam when `sigLen` is too small or the padding does not fit the key.
@discardableResult
public func SecKeyRawSign(_ key: SecKey, _ padding: SecPadding, _ dataToSign: UnsafePointer<UInt8>,
                          _ dataToSignLen: Int, _ sig: UnsafeMutablePointer<UInt8>,
                          _ sigLen: UnsafeMutablePointer<Int>) -> OSStatus {
    LegacyOperation.run(algorithm: padding.signatureAlgorithm(for: key.material, dataLength: dataToSignLen),
                        input: dataToSign, inputLength: dataToSignLen, output: sig, outputLength: sigLen) {
        algorithm, data throws(KeyFailure) in
        try KeySignature.sign(data, with: try key.materialForPrivateUse(.sign, algorithm), algorithm: algorithm)
    }
}

/// Checks a signature of a digest with a public key (legacy; prefer
/// ``SecKeyVerifySignature(_:_:_:_:_:)``). The paddings are those of ``SecKeyRawSign(_:_:_:_:_:_:)``.
///
/// - Returns: errSecSuccess when the signature matches, ``errSSLCrypto`` (-9809) when it does
///   not, as on Apple platforms.
@discardableResult
public func SecKeyRawVerify(_ key: SecKey, _ padding: SecPadding, _ signedData: UnsafePointer<UInt8>,
                            _ signedDataLen: Int, _ sig: UnsafePointer<UInt8>, _ sigLen: Int) -> OSStatus {
    guard sigLen >= 0 else { return errSecParam }
    let signature = Data(bytes: sig, count: sigLen)
    return LegacyOperation.run(algorithm: padding.signatureAlgorithm(for: key.material, dataLength: signedDataLen),
                               input: signedData, inputLength: signedDataLen, output: nil, outputLength: nil) {
        algorithm, data throws(KeyFailure) in
        try KeySignature.verify(signature, of: data, with: key.material, algorithm: algorithm)
        return nil
    }
}

/// Encrypts with an RSA public key (legacy; prefer ``SecKeyCreateEncryptedData(_:_:_:_:)``):
/// no padding, `.PKCS1` or `.OAEP` (SHA-1).
///
/// - Returns: errSecSuccess with the ciphertext in `cipherText` and its length in
///   `cipherTextLen`; errSecParam when the buffer is too small, the data too long, or the
///   key or padding not RSA's.
@discardableResult
public func SecKeyEncrypt(_ key: SecKey, _ padding: SecPadding, _ plainText: UnsafePointer<UInt8>,
                          _ plainTextLen: Int, _ cipherText: UnsafeMutablePointer<UInt8>,
                          _ cipherTextLen: UnsafeMutablePointer<Int>) -> OSStatus {
    LegacyOperation.run(algorithm: padding.encryptionAlgorithm(for: key.material),
                        input: plainText, inputLength: plainTextLen, output: cipherText, outputLength: cipherTextLen) {
        algorithm, data throws(KeyFailure) in
        try KeyEncryption.encrypt(data, with: key.material, algorithm: algorithm)
    }
}

/// Decrypts with an RSA private key (legacy; prefer ``SecKeyCreateDecryptedData(_:_:_:_:)``).
/// The paddings are those of ``SecKeyEncrypt(_:_:_:_:_:_:)``.
///
/// - Returns: errSecSuccess with the plaintext in `plainText` and its length in
///   `plainTextLen`; errSecParam when the buffer is too small or the ciphertext is not the
///   key's.
@discardableResult
public func SecKeyDecrypt(_ key: SecKey, _ padding: SecPadding, _ cipherText: UnsafePointer<UInt8>,
                          _ cipherTextLen: Int, _ plainText: UnsafeMutablePointer<UInt8>,
                          _ plainTextLen: UnsafeMutablePointer<Int>) -> OSStatus {
    LegacyOperation.run(algorithm: padding.encryptionAlgorithm(for: key.material),
                        input: cipherText, inputLength: cipherTextLen, output: plainText, outputLength: plainTextLen) {
        algorithm, data throws(KeyFailure) in
        try KeyEncryption.decrypt(data, with: try key.materialForPrivateUse(.decrypt, algorithm), algorithm: algorithm)
    }
}
