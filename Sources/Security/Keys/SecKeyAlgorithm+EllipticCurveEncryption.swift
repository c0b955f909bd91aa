import Foundation

// ECIES: Apple's elliptic-curve integrated encryption. A ciphertext is the ephemeral public key
// (X9.63 uncompressed) followed by the AES-GCM ciphertext and its 16-byte tag; the AES key (and,
// for the VariableIV algorithms, the 16-byte IV) come from the X9.63 KDF of the ECDH secret
// with the ephemeral public key as shared info. Cofactor ECDH equals standard ECDH on the NIST
// curves (cofactor 1), so the Cofactor algorithms give the same bytes as the Standard ones.
extension SecKeyAlgorithm {
    /// ECIES with standard ECDH, the X9.63 KDF over SHA-1, AES-GCM with an all-zero 16-byte IV.
    /// Legacy: use ``eciesEncryptionStandardVariableIVX963SHA256AESGCM`` in new code.
    public static let eciesEncryptionStandardX963SHA1AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM" as CFString)

    /// ECIES with standard ECDH, the X9.63 KDF over SHA-224, AES-GCM with an all-zero 16-byte IV.
    /// Legacy: use ``eciesEncryptionStandardVariableIVX963SHA224AESGCM`` in new code.
    public static let eciesEncryptionStandardX963SHA224AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM" as CFString)

    /// ECIES with standard ECDH, the X9.63 KDF over SHA-256, AES-GCM with an all-zero 16-byte IV.
    /// Legacy: use ``eciesEncryptionStandardVariableIVX963SHA256AESGCM`` in new code.
    public static let eciesEncryptionStandardX963SHA256AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM" as CFString)

    /// ECIES with standard ECDH, the X9.63 KDF over SHA-384, AES-GCM with an all-zero 16-byte IV.
    /// Legacy: use ``eciesEncryptionStandardVariableIVX963SHA384AESGCM`` in new code.
    public static let eciesEncryptionStandardX963SHA384AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM" as CFString)

    /// ECIES with standard ECDH, the X9.63 KDF over SHA-512, AES-GCM with an all-zero 16-byte IV.
    /// Legacy: use ``eciesEncryptionStandardVariableIVX963SHA512AESGCM`` in new code.
    public static let eciesEncryptionStandardX963SHA512AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM" as CFString)

    /// ECIES with standard ECDH, the X9.63 KDF over SHA-224, AES-GCM whose 16-byte IV is the KDF output after the AES key.
    public static let eciesEncryptionStandardVariableIVX963SHA224AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV" as CFString)

    /// ECIES with standard ECDH, the X9.63 KDF over SHA-256, AES-GCM whose 16-byte IV is the KDF output after the AES key.
    public static let eciesEncryptionStandardVariableIVX963SHA256AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV" as CFString)

    /// ECIES with standard ECDH, the X9.63 KDF over SHA-384, AES-GCM whose 16-byte IV is the KDF output after the AES key.
    public static let eciesEncryptionStandardVariableIVX963SHA384AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV" as CFString)

    /// ECIES with standard ECDH, the X9.63 KDF over SHA-512, AES-GCM whose 16-byte IV is the KDF output after the AES key.
    public static let eciesEncryptionStandardVariableIVX963SHA512AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV" as CFString)

    /// ECIES with cofactor ECDH, the X9.63 KDF over SHA-1, AES-GCM with an all-zero 16-byte IV.
    /// Legacy: use ``eciesEncryptionCofactorVariableIVX963SHA256AESGCM`` in new code.
    public static let eciesEncryptionCofactorX963SHA1AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM" as CFString)

    /// ECIES with cofactor ECDH, the X9.63 KDF over SHA-224, AES-GCM with an all-zero 16-byte IV.
    /// Legacy: use ``eciesEncryptionCofactorVariableIVX963SHA224AESGCM`` in new code.
    public static let eciesEncryptionCofactorX963SHA224AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM" as CFString)

    /// ECIES with cofactor ECDH, the X9.63 KDF over SHA-256, AES-GCM with an all-zero 16-byte IV.
    /// Legacy: use ``eciesEncryptionCofactorVariableIVX963SHA256AESGCM`` in new code.
    public static let eciesEncryptionCofactorX963SHA256AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM" as CFString)

    /// ECIES with cofactor ECDH, the X9.63 KDF over SHA-384, AES-GCM with an all-zero 16-byte IV.
    /// Legacy: use ``eciesEncryptionCofactorVariableIVX963SHA384AESGCM`` in new code.
    public static let eciesEncryptionCofactorX963SHA384AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM" as CFString)

    /// ECIES with cofactor ECDH, the X9.63 KDF over SHA-512, AES-GCM with an all-zero 16-byte IV.
    /// Legacy: use ``eciesEncryptionCofactorVariableIVX963SHA512AESGCM`` in new code.
    public static let eciesEncryptionCofactorX963SHA512AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM" as CFString)

    /// ECIES with cofactor ECDH, the X9.63 KDF over SHA-224, AES-GCM whose 16-byte IV is the KDF output after the AES key.
    public static let eciesEncryptionCofactorVariableIVX963SHA224AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV" as CFString)

    /// ECIES with cofactor ECDH, the X9.63 KDF over SHA-256, AES-GCM whose 16-byte IV is the KDF output after the AES key.
    public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV" as CFString)

    /// ECIES with cofactor ECDH, the X9.63 KDF over SHA-384, AES-GCM whose 16-byte IV is the KDF output after the AES key.
    public static let eciesEncryptionCofactorVariableIVX963SHA384AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV" as CFString)

    /// ECIES with cofactor ECDH, the X9.63 KDF over SHA-512, AES-GCM whose 16-byte IV is the KDF output after the AES key.
    public static let eciesEncryptionCofactorVariableIVX963SHA512AESGCM = SecKeyAlgorithm("algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV" as CFString)
}
