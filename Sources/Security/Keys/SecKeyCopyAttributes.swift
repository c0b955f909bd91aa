internal import Crypto
import Foundation

extension KeyMaterial {
    /// Apple's block size (`SecKeyGetBlockSize`): the modulus's bytes for RSA; for
    /// elliptic-curve keys the bytes of corecrypto's numbers of the curve's size, in 64-bit
    /// words (SecECKey.c, `ccec_ccn_size`): 32, 48 and 72 (not 66) for P-256, P-384, P-521.
    var blockSize: Int {
        switch family {
        case .rsa: RSARawOperation.byteCount(bits: bitCount)
        case .ellipticCurve: (bitCount + 63) / 64 * 8
        }
    }

    /// Apple's `kSecAttrApplicationLabel` of a key: the SHA-1 of the public key's external
    /// representation (SecKeyCopyPublicKeyHash).
    var publicKeyHash: Data {
        Data(Insecure.SHA1.hash(data: publicExternalRepresentation))
    }

    /// The usage flags Apple gives a key (SecKey.c, SecKeyCopyAttributeDictionaryWithLocalKey),
    /// by attribute code: a private key decrypts, derives, signs and unwraps; a public key
    /// encrypts, derives, verifies and wraps. A key held in a TPM only signs. The one table
    /// behind ``SecKeyCopyAttributes(_:)`` and the attributes of a key added to the keychain
    /// by reference.
    var usageFlags: [(code: CFString, allowed: Bool)] {
        var signsOnly = false
        if case .tpmPrivate = self { signsOnly = true }
        return [(kSecAttrCanEncrypt, !isPrivate), (kSecAttrCanDecrypt, isPrivate && !signsOnly),
                (kSecAttrCanDerive, !signsOnly), (kSecAttrCanSign, isPrivate), (kSecAttrCanVerify, !isPrivate),
                (kSecAttrCanWrap, !isPrivate), (kSecAttrCanUnwrap, isPrivate && !signsOnly)]
    }
}

/// The block size of a key, in bytes.
///
/// For RSA keys, the size of the modulus: the size of a signature or ciphertext. For
/// elliptic-curve keys, Apple's value: 32 for P-256, 48 for P-384 and 72 for P-521 (the
/// curve's size rounded up to 64-bit words).
///
/// - Parameter key: The key.
/// - Returns: The block size in bytes.
@discardableResult
public func SecKeyGetBlockSize(_ key: SecKey) -> Int {
    key.material.blockSize
}

/// The attributes of a key, as Apple reports them for a key made in memory
/// (SecKey.c, `SecKeyCopyAttributeDictionaryWithLocalKey`).
///
/// The dictionary holds `kSecClass` (`kSecClassKey`), `kSecAttrKeyClass`, `kSecAttrKeyType`,
/// `kSecAttrKeySizeInBits` and `kSecAttrEffectiveKeySize`, `kSecAttrApplicationLabel` (the
/// SHA-1 of the public key's external representation), the usage flags (a private key
/// decrypts, derives, signs and unwraps; a public key encrypts, derives, verifies and
/// wraps), and under `kSecValueData` the key's external representation. For a private key
/// that is the secret key: do not log the dictionary.
///
/// A Secure Enclave-style private key reports `kSecAttrTokenID` (`kSecAttrTokenIDSecureEnclave`),
/// is sensitive and not extractable, and has no `kSecValueData`, as Apple's token keys.
///
/// - Parameter key: The key.
/// - Returns: The attributes.
@discardableResult
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? {
    let material = key.material
    let isPrivate = material.isPrivate
    let exportable = key.isExportable
    var attributes: [String: Any] = [
        kSecClass as String: kSecClassKey,
        kSecAttrKeyClass as String: isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic,
        kSecAttrApplicationLabel as String: material.publicKeyHash,
        kSecAttrIsPermanent as String: true,
        kSecAttrIsPrivate as String: true,
        kSecAttrIsModifiable as String: true,
        kSecAttrKeyType as String: material.family == .rsa ? kSecAttrKeyTypeRSA : kSecAttrKeyTypeECSECPrimeRandom,
        kSecAttrKeySizeInBits as String: material.bitCount,
        kSecAttrEffectiveKeySize as String: material.bitCount,
        kSecAttrIsSensitive as String: !exportable,
        kSecAttrWasAlwaysSensitive as String: !exportable,
        kSecAttrIsExtractable as String: exportable,
        kSecAttrWasNeverExtractable as String: !exportable,
        kSecAttrCanSignRecover as String: false,
        kSecAttrCanVerifyRecover as String: false,
    ]
    if exportable {
        attributes[kSecValueData as String] = material.externalRepresentation
    } else {
        attributes[kSecAttrTokenID as String] = kSecAttrTokenIDSecureEnclave as String
    }
    for flag in material.usageFlags {
        attributes[flag.code as String] = flag.allowed
    }
    return attributes as NSDictionary
}
