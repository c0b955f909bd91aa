import Foundation

/// Which key may run which algorithm: the one check behind every SecKey operation and
/// ``SecKeyIsAlgorithmSupported(_:_:_:)``, so that what the function says is what the
/// operations do.
///
/// As on Apple platforms, a private key signs and decrypts, a public key verifies and
/// encrypts; anything else is errSecUnimplemented ("algorithm not supported by the key").
enum KeyOperation {
    /// The scheme of `algorithm` for `operation` with `key`.
    ///
    /// - Throws: errSecUnimplemented when the key cannot run the algorithm.
    static func scheme(_ algorithm: SecKeyAlgorithm, _ operation: SecKeyOperationType,
                       _ key: KeyMaterial) throws(KeyFailure) -> KeyAlgorithmScheme {
        guard let scheme = KeyAlgorithmScheme(algorithm), allows(scheme, operation, key) else {
            if case .tpmPrivate = key, operation != .sign {
                throw KeyFailure(.unimplemented, "a key held in a TPM only signs: \(algorithm.identifier) is not implemented for it")
            }
            throw KeyFailure(.unimplemented, "algorithm not supported by the key: \(algorithm.identifier)")
        }
        return scheme
    }

    private static func allows(_ scheme: KeyAlgorithmScheme, _ operation: SecKeyOperationType,
                               _ key: KeyMaterial) -> Bool {
        switch (scheme, operation, key) {
        case (.ecdsa, .sign, .ellipticCurvePrivate), (.ecdsa, .verify, .ellipticCurvePublic),
             (.rsaSignature, .sign, .rsaPrivate), (.rsaSignature, .verify, .rsaPublic),
             (.rsaEncryption, .encrypt, .rsaPublic), (.rsaEncryption, .decrypt, .rsaPrivate),
             (.ellipticCurveEncryption, .encrypt, .ellipticCurvePublic),
             (.ellipticCurveEncryption, .decrypt, .ellipticCurvePrivate),
             (.keyExchange, .keyExchange, .ellipticCurvePrivate),
             // ECDSA alone: its TPM key is made for signing (key exchange and ECIES
             // decryption would need TPM2_ECDH_ZGen and a key made for decryption).
             (.ecdsa, .sign, .tpmPrivate):
            true
        default:
            false
        }
    }
}

/// Whether a key can run an algorithm for an operation.
///
/// ```swift
/// let canSign = SecKeyIsAlgorithmSupported(privateKey, .sign, .ecdsaSignatureMessageX962SHA256)
/// ```
///
/// - Parameters:
///   - key: The key.
///   - operation: What the key is to do.
///   - algorithm: The algorithm.
/// - Returns: True when ``SecKeyCreateSignature(_:_:_:_:)`` and the other operations would
///   accept the key and algorithm (the data may still be refused).
@discardableResult
public func SecKeyIsAlgorithmSupported(_ key: SecKey, _ operation: SecKeyOperationType,
                                       _ algorithm: SecKeyAlgorithm) -> Bool {
    (try? KeyOperation.scheme(algorithm, operation, key.material)) != nil
}
