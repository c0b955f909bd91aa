import Foundation

// Apple's signature and RSA encryption algorithms, with Apple's identifiers (SecKey.h). The
// PSS identifiers end with Apple's salt length; Apple's SHA-224 ones say 24, as on Apple
// platforms, though the salt is 28 bytes long.
extension SecKeyAlgorithm {
    /// ECDSA of a digest the caller computed (any length); the signature is `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureRFC4754 = SecKeyAlgorithm("algid:sign:ECDSA:RFC4754" as CFString)
    /// ECDSA of a digest the caller computed (any length); the signature is DER (ANSI X9.62).
    public static let ecdsaSignatureDigestX962 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962" as CFString)
    /// ECDSA of a digest the caller computed (any length); the signature is `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754" as CFString)
    /// ECDSA of a SHA-1 digest the caller computed; the signature is DER (ANSI X9.62).
    public static let ecdsaSignatureDigestX962SHA1 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA1" as CFString)
    /// ECDSA of a SHA-224 digest the caller computed; the signature is DER (ANSI X9.62).
    public static let ecdsaSignatureDigestX962SHA224 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA224" as CFString)
    /// ECDSA of a SHA-256 digest the caller computed; the signature is DER (ANSI X9.62).
    public static let ecdsaSignatureDigestX962SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA256" as CFString)
    /// ECDSA of a SHA-384 digest the caller computed; the signature is DER (ANSI X9.62).
    public static let ecdsaSignatureDigestX962SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA384" as CFString)
    /// ECDSA of a SHA-512 digest the caller computed; the signature is DER (ANSI X9.62).
    public static let ecdsaSignatureDigestX962SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA512" as CFString)
    /// ECDSA of the SHA-1 digest of the message; the signature is DER (ANSI X9.62).
    public static let ecdsaSignatureMessageX962SHA1 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA1" as CFString)
    /// ECDSA of the SHA-224 digest of the message; the signature is DER (ANSI X9.62).
    public static let ecdsaSignatureMessageX962SHA224 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA224" as CFString)
    /// ECDSA of the SHA-256 digest of the message; the signature is DER (ANSI X9.62).
    public static let ecdsaSignatureMessageX962SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA256" as CFString)
    /// ECDSA of the SHA-384 digest of the message; the signature is DER (ANSI X9.62).
    public static let ecdsaSignatureMessageX962SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA384" as CFString)
    /// ECDSA of the SHA-512 digest of the message; the signature is DER (ANSI X9.62).
    public static let ecdsaSignatureMessageX962SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA512" as CFString)
    /// ECDSA of a SHA-1 digest the caller computed; the signature is `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA1 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA1" as CFString)
    /// ECDSA of a SHA-224 digest the caller computed; the signature is `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA224 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA224" as CFString)
    /// ECDSA of a SHA-256 digest the caller computed; the signature is `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA256" as CFString)
    /// ECDSA of a SHA-384 digest the caller computed; the signature is `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA384" as CFString)
    /// ECDSA of a SHA-512 digest the caller computed; the signature is `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA512" as CFString)
    /// ECDSA of the SHA-1 digest of the message; the signature is `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA1 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA1" as CFString)
    /// ECDSA of the SHA-224 digest of the message; the signature is `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA224 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA224" as CFString)
    /// ECDSA of the SHA-256 digest of the message; the signature is `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA256" as CFString)
    /// ECDSA of the SHA-384 digest of the message; the signature is `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA384" as CFString)
    /// ECDSA of the SHA-512 digest of the message; the signature is `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA512" as CFString)
    /// The raw RSA private operation on data of at most the key's block size, no padding.
    public static let rsaSignatureRaw = SecKeyAlgorithm("algid:sign:RSA:raw" as CFString)
    /// PKCS #1 v1.5 signature padding around the data as given, with no `DigestInfo`.
    public static let rsaSignatureDigestPKCS1v15Raw = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15" as CFString)
    /// RSASSA-PKCS1-v1_5 of a SHA-1 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA1 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA1" as CFString)
    /// RSASSA-PKCS1-v1_5 of a SHA-224 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA224 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA224" as CFString)
    /// RSASSA-PKCS1-v1_5 of a SHA-256 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA256 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA256" as CFString)
    /// RSASSA-PKCS1-v1_5 of a SHA-384 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA384 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA384" as CFString)
    /// RSASSA-PKCS1-v1_5 of a SHA-512 digest the caller computed.
    public static let rsaSignatureDigestPKCS1v15SHA512 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA512" as CFString)
    /// RSASSA-PKCS1-v1_5 of the SHA-1 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA1 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA1" as CFString)
    /// RSASSA-PKCS1-v1_5 of the SHA-224 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA224 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA224" as CFString)
    /// RSASSA-PKCS1-v1_5 of the SHA-256 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA256 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA256" as CFString)
    /// RSASSA-PKCS1-v1_5 of the SHA-384 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA384 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA384" as CFString)
    /// RSASSA-PKCS1-v1_5 of the SHA-512 digest of the message.
    public static let rsaSignatureMessagePKCS1v15SHA512 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA512" as CFString)
    /// RSASSA-PSS of a SHA-1 digest the caller computed, MGF1 with SHA-1, a salt as long as the digest.
    public static let rsaSignatureDigestPSSSHA1 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA1:SHA1:20" as CFString)
    /// RSASSA-PSS of a SHA-224 digest the caller computed, MGF1 with SHA-224, a salt as long as the digest.
    public static let rsaSignatureDigestPSSSHA224 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA224:SHA224:24" as CFString)
    /// RSASSA-PSS of a SHA-256 digest the caller computed, MGF1 with SHA-256, a salt as long as the digest.
    public static let rsaSignatureDigestPSSSHA256 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA256:SHA256:32" as CFString)
    /// RSASSA-PSS of a SHA-384 digest the caller computed, MGF1 with SHA-384, a salt as long as the digest.
    public static let rsaSignatureDigestPSSSHA384 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA384:SHA384:48" as CFString)
    /// RSASSA-PSS of a SHA-512 digest the caller computed, MGF1 with SHA-512, a salt as long as the digest.
    public static let rsaSignatureDigestPSSSHA512 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA512:SHA512:64" as CFString)
    /// RSASSA-PSS of the SHA-1 digest of the message, MGF1 with SHA-1, a salt as long as the digest.
    public static let rsaSignatureMessagePSSSHA1 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA1:SHA1:20" as CFString)
    /// RSASSA-PSS of the SHA-224 digest of the message, MGF1 with SHA-224, a salt as long as the digest.
    public static let rsaSignatureMessagePSSSHA224 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA224:SHA224:24" as CFString)
    /// RSASSA-PSS of the SHA-256 digest of the message, MGF1 with SHA-256, a salt as long as the digest.
    public static let rsaSignatureMessagePSSSHA256 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA256:SHA256:32" as CFString)
    /// RSASSA-PSS of the SHA-384 digest of the message, MGF1 with SHA-384, a salt as long as the digest.
    public static let rsaSignatureMessagePSSSHA384 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA384:SHA384:48" as CFString)
    /// RSASSA-PSS of the SHA-512 digest of the message, MGF1 with SHA-512, a salt as long as the digest.
    public static let rsaSignatureMessagePSSSHA512 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA512:SHA512:64" as CFString)
    /// The raw RSA public operation on data of at most the key's block size, no padding.
    public static let rsaEncryptionRaw = SecKeyAlgorithm("algid:encrypt:RSA:raw" as CFString)
    /// RSAES-PKCS1-v1_5.
    public static let rsaEncryptionPKCS1 = SecKeyAlgorithm("algid:encrypt:RSA:PKCS1" as CFString)
    /// RSAES-OAEP with SHA-1 and MGF1 with SHA-1, no label.
    public static let rsaEncryptionOAEPSHA1 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA1" as CFString)
    /// RSAES-OAEP with SHA-224 and MGF1 with SHA-224, no label.
    public static let rsaEncryptionOAEPSHA224 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA224" as CFString)
    /// RSAES-OAEP with SHA-256 and MGF1 with SHA-256, no label.
    public static let rsaEncryptionOAEPSHA256 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA256" as CFString)
    /// RSAES-OAEP with SHA-384 and MGF1 with SHA-384, no label.
    public static let rsaEncryptionOAEPSHA384 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA384" as CFString)
    /// RSAES-OAEP with SHA-512 and MGF1 with SHA-512, no label.
    public static let rsaEncryptionOAEPSHA512 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA512" as CFString)
    /// An AES-GCM key wrapped with RSAES-OAEP SHA-1, then the data sealed with it. Not supported on Linux.
    public static let rsaEncryptionOAEPSHA1AESGCM = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA1:AESGCM" as CFString)
    /// An AES-GCM key wrapped with RSAES-OAEP SHA-224, then the data sealed with it. Not supported on Linux.
    public static let rsaEncryptionOAEPSHA224AESGCM = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA224:AESGCM" as CFString)
    /// An AES-GCM key wrapped with RSAES-OAEP SHA-256, then the data sealed with it. Not supported on Linux.
    public static let rsaEncryptionOAEPSHA256AESGCM = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA256:AESGCM" as CFString)
    /// An AES-GCM key wrapped with RSAES-OAEP SHA-384, then the data sealed with it. Not supported on Linux.
    public static let rsaEncryptionOAEPSHA384AESGCM = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA384:AESGCM" as CFString)
    /// An AES-GCM key wrapped with RSAES-OAEP SHA-512, then the data sealed with it. Not supported on Linux.
    public static let rsaEncryptionOAEPSHA512AESGCM = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA512:AESGCM" as CFString)
}
