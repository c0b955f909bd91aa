import Foundation

// ECDH key exchange: the raw shared secret (the x-coordinate of the shared point), or that
// secret run through the X9.63 KDF with the hash named. Cofactor ECDH equals standard ECDH on
// the NIST curves (cofactor 1).
extension SecKeyAlgorithm {
    /// Standard ECDH: the shared secret itself, the x-coordinate of the shared point.
    public static let ecdhKeyExchangeStandard = SecKeyAlgorithm("algid:keyexchange:ECDH" as CFString)

    /// Standard ECDH, the shared secret run through the X9.63 KDF over SHA-1
    /// (`requestedSize` bytes, `sharedInfo` as the KDF's shared info).
    public static let ecdhKeyExchangeStandardX963SHA1 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA1" as CFString)

    /// Standard ECDH, the shared secret run through the X9.63 KDF over SHA-224
    /// (`requestedSize` bytes, `sharedInfo` as the KDF's shared info).
    public static let ecdhKeyExchangeStandardX963SHA224 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA224" as CFString)

    /// Standard ECDH, the shared secret run through the X9.63 KDF over SHA-256
    /// (`requestedSize` bytes, `sharedInfo` as the KDF's shared info).
    public static let ecdhKeyExchangeStandardX963SHA256 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA256" as CFString)

    /// Standard ECDH, the shared secret run through the X9.63 KDF over SHA-384
    /// (`requestedSize` bytes, `sharedInfo` as the KDF's shared info).
    public static let ecdhKeyExchangeStandardX963SHA384 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA384" as CFString)

    /// Standard ECDH, the shared secret run through the X9.63 KDF over SHA-512
    /// (`requestedSize` bytes, `sharedInfo` as the KDF's shared info).
    public static let ecdhKeyExchangeStandardX963SHA512 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA512" as CFString)

    /// Cofactor ECDH: the shared secret itself, the x-coordinate of the shared point.
    public static let ecdhKeyExchangeCofactor = SecKeyAlgorithm("algid:keyexchange:ECDHC" as CFString)

    /// Cofactor ECDH, the shared secret run through the X9.63 KDF over SHA-1
    /// (`requestedSize` bytes, `sharedInfo` as the KDF's shared info).
    public static let ecdhKeyExchangeCofactorX963SHA1 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA1" as CFString)

    /// Cofactor ECDH, the shared secret run through the X9.63 KDF over SHA-224
    /// (`requestedSize` bytes, `sharedInfo` as the KDF's shared info).
    public static let ecdhKeyExchangeCofactorX963SHA224 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA224" as CFString)

    /// Cofactor ECDH, the shared secret run through the X9.63 KDF over SHA-256
    /// (`requestedSize` bytes, `sharedInfo` as the KDF's shared info).
    public static let ecdhKeyExchangeCofactorX963SHA256 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA256" as CFString)

    /// Cofactor ECDH, the shared secret run through the X9.63 KDF over SHA-384
    /// (`requestedSize` bytes, `sharedInfo` as the KDF's shared info).
    public static let ecdhKeyExchangeCofactorX963SHA384 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA384" as CFString)

    /// Cofactor ECDH, the shared secret run through the X9.63 KDF over SHA-512
    /// (`requestedSize` bytes, `sharedInfo` as the KDF's shared info).
    public static let ecdhKeyExchangeCofactorX963SHA512 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA512" as CFString)
}
