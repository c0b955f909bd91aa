internal import Crypto
import Foundation

/// ECDH key exchange as Apple's `ecdhKeyExchange...` algorithms do it: the raw shared secret,
/// or that secret run through the X9.63 KDF.
enum KeyExchange {
    /// Every key-exchange algorithm Apple declares, with the KDF's hash where it has one.
    /// Standard and Cofactor name the same computation on the NIST curves (cofactor 1).
    private static let derivations: [SecKeyAlgorithm: KeyDerivationDigest?] = [
        .ecdhKeyExchangeStandard: nil,
        .ecdhKeyExchangeStandardX963SHA1: .sha1,
        .ecdhKeyExchangeStandardX963SHA224: .sha224,
        .ecdhKeyExchangeStandardX963SHA256: .sha256,
        .ecdhKeyExchangeStandardX963SHA384: .sha384,
        .ecdhKeyExchangeStandardX963SHA512: .sha512,
        .ecdhKeyExchangeCofactor: nil,
        .ecdhKeyExchangeCofactorX963SHA1: .sha1,
        .ecdhKeyExchangeCofactorX963SHA224: .sha224,
        .ecdhKeyExchangeCofactorX963SHA256: .sha256,
        .ecdhKeyExchangeCofactorX963SHA384: .sha384,
        .ecdhKeyExchangeCofactorX963SHA512: .sha512,
    ]

    /// Whether the algorithm is a key exchange this module performs.
    static func supports(_ algorithm: SecKeyAlgorithm) -> Bool {
        derivations[algorithm] != nil
    }

    /// The result of ``SecKeyCopyKeyExchangeResult(_:_:_:_:_:)``, checked in Apple's order:
    /// the algorithm and the private key, the public key, then the parameters.
    static func result(of privateKey: KeyMaterial, _ algorithm: SecKeyAlgorithm, with publicKey: KeyMaterial,
                       parameters: CFDictionary) throws(KeyFailure) -> Data {
        if case .tpmPrivate = privateKey {
            throw KeyFailure(.unimplemented, "a key held in a TPM only signs: key exchange (\(algorithm.identifier)) is not implemented for it")
        }
        guard let derivation = derivations[algorithm], case .ellipticCurvePrivate(let ours) = privateKey else {
            throw KeyFailure(.param, "\(algorithm.identifier): algorithm not supported by the key")
        }
        guard case .ellipticCurvePublic(let theirs) = publicKey else {
            throw KeyFailure(.param, "ECDH: the other key is not an elliptic-curve public key")
        }
        let secret = try ours.sharedSecret(with: theirs)
        guard let digest = derivation else {
            return secret.withUnsafeBytes { Data($0) }
        }
        let values = parameters as? [String: Any] ?? [:]
        guard let sizeValue = values[SecKeyKeyExchangeParameter.requestedSize.identifier],
              let size = wholeNumber(sizeValue) else {
            throw KeyFailure(.param, "kSecKeyKeyExchangeParameterRequestedSize is missing or not a whole number")
        }
        var sharedInfo = Data()
        if let infoValue = values[SecKeyKeyExchangeParameter.sharedInfo.identifier] {
            guard let data = FoundationValues.data(infoValue) else {
                throw KeyFailure(.param, "ECDH: kSecKeyKeyExchangeParameterSharedInfo must be CFData")
            }
            sharedInfo = data
        }
        let derived = try digest.derive(from: secret, sharedInfo: sharedInfo, byteCount: size)
        return derived.withUnsafeBytes { Data($0) }
    }

    /// A CFNumber holding a whole number, as Apple reads the requested size; booleans, text
    /// and fractions are not one.
    private static func wholeNumber(_ value: Any) -> Int? {
        guard let number = value as? NSNumber, !FoundationValues.isBoolean(value),
              FoundationValues.string(value) == nil else { return nil }
        let integer = number.int64Value
        guard Double(integer) == number.doubleValue, let result = Int(exactly: integer) else { return nil }
        return result
    }
}

/// Performs a Diffie-Hellman key exchange: the secret two parties share when each combines its
/// own private key with the other's public key.
///
/// ```swift
/// let parameters = [SecKeyKeyExchangeParameter.requestedSize.rawValue: 32,
///                   SecKeyKeyExchangeParameter.sharedInfo.rawValue: info] as CFDictionary
/// var error: Unmanaged<CFError>?
/// let secret = SecKeyCopyKeyExchangeResult(myPrivateKey, .ecdhKeyExchangeStandardX963SHA256,
///                                          theirPublicKey, parameters, &error) as Data?
/// ```
///
/// `ecdhKeyExchangeStandard` and `ecdhKeyExchangeCofactor` give the shared secret itself (the
/// x-coordinate of the shared point: 32, 48 or 66 bytes); the `...X963SHA...` variants give
/// `requestedSize` bytes (1 to 1 MiB) of the ANSI X9.63 KDF of it, with `sharedInfo` (optional)
/// as shared info. Both keys are elliptic-curve keys of one curve (P-256, P-384 or P-521).
///
/// - Parameters:
///   - privateKey: Your private key.
///   - algorithm: An `ecdhKeyExchange...` algorithm.
///   - publicKey: The other party's public key.
///   - parameters: ``SecKeyKeyExchangeParameter/requestedSize`` (a whole `CFNumber`, required by
///     the KDF variants) and ``SecKeyKeyExchangeParameter/sharedInfo`` (`CFData`).
///   - error: Set when the call fails, to an error of the `OSStatus` domain: errSecParam for an
///     algorithm the private key does not support (a public or RSA key included), a public key
///     that is not an elliptic-curve public key, a missing or bad parameter; errSecDecode for keys
///     on different curves; errSecUnimplemented for a Secure Enclave-style key held in a TPM,
///     which only signs. The caller takes it with `takeRetainedValue()`.
/// - Returns: The shared secret or the key derived from it, or nil on failure.
@discardableResult
public func SecKeyCopyKeyExchangeResult(_ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey,
                                        _ parameters: CFDictionary,
                                        _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    KeyFailure.returning(errorTo: error) { () throws(KeyFailure) -> CFData in
        try KeyExchange.result(of: try privateKey.materialForPrivateUse(.keyExchange, algorithm), algorithm,
                               with: publicKey.material, parameters: parameters) as NSData
    }
}
