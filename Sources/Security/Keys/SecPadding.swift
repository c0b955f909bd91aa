import Foundation

/// The paddings of the legacy calls `SecKeyRawSign`, `SecKeyRawVerify`, `SecKeyEncrypt` and
/// `SecKeyDecrypt`, with Apple's raw values. The empty set is no padding (Apple's
/// `kSecPaddingNone`).
public struct SecPadding: OptionSet, @unchecked Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// PKCS #1 v1.5: encryption padding, or signature padding around the data as given.
    public static let PKCS1 = SecPadding(rawValue: 1)
    /// OAEP with SHA-1, for encryption.
    public static let OAEP = SecPadding(rawValue: 2)
    /// Elliptic-curve signatures as `r ‖ s` rather than DER.
    public static let sigRaw = SecPadding(rawValue: 0x4000)
    /// PKCS #1 v1.5 signature of an MD2 digest (not supported).
    public static let PKCS1MD2 = SecPadding(rawValue: 0x8000)
    /// PKCS #1 v1.5 signature of an MD5 digest (not supported).
    public static let PKCS1MD5 = SecPadding(rawValue: 0x8001)
    /// PKCS #1 v1.5 signature of a SHA-1 digest.
    public static let PKCS1SHA1 = SecPadding(rawValue: 0x8002)
    /// PKCS #1 v1.5 signature of a SHA-224 digest .
    public static let PKCS1SHA224 = SecPadding(rawValue: 0x8003)
    /// PKCS #1 v1.5 signature of a SHA-256 digest.
    public static let PKCS1SHA256 = SecPadding(rawValue: 0x8004)
    /// PKCS #1 v1.5 signature of a SHA-384 digest.
    public static let PKCS1SHA384 = SecPadding(rawValue: 0x8005)
    /// PKCS #1 v1.5 signature of a SHA-512 digest.
    public static let PKCS1SHA512 = SecPadding(rawValue: 0x8006)

    /// The algorithm a legacy signature call with this padding runs for the key (SecKey.m,
    /// SecKeyGetSignatureAlgorithmForPadding); nil when there is none.
    func signatureAlgorithm(for key: KeyMaterial, dataLength: Int) -> SecKeyAlgorithm? {
        switch key.family {
        case .ellipticCurve:
            if self == .sigRaw { return .ecdsaSignatureDigestRFC4754 }
            guard self == .PKCS1 else { return .ecdsaSignatureDigestX962 }
            // PKCS1 on an EC key names the digest by its length.
            switch dataLength {
            case 20: return .ecdsaSignatureDigestX962SHA1
            case 28: return .ecdsaSignatureDigestX962SHA224
            case 32: return .ecdsaSignatureDigestX962SHA256
            case 48: return .ecdsaSignatureDigestX962SHA384
            case 64: return .ecdsaSignatureDigestX962SHA512
            default: return .ecdsaSignatureDigestX962
            }
        case .rsa:
            switch self {
            case []: return .rsaSignatureRaw
            case .PKCS1: return .rsaSignatureDigestPKCS1v15Raw
            case .PKCS1SHA1: return .rsaSignatureDigestPKCS1v15SHA1
            case .PKCS1SHA224: return .rsaSignatureDigestPKCS1v15SHA224
            case .PKCS1SHA256: return .rsaSignatureDigestPKCS1v15SHA256
            case .PKCS1SHA384: return .rsaSignatureDigestPKCS1v15SHA384
            case .PKCS1SHA512: return .rsaSignatureDigestPKCS1v15SHA512
            default: return nil
            }
        }
    }

    /// The algorithm a legacy encryption call with this padding runs: RSA keys only, with
    /// no padding, PKCS #1 or OAEP SHA-1 (SecKey.m, SecKeyEncrypt).
    func encryptionAlgorithm(for key: KeyMaterial) -> SecKeyAlgorithm? {
        guard key.family == .rsa else { return nil }
        switch self {
        case []: return .rsaEncryptionRaw
        case .PKCS1: return .rsaEncryptionPKCS1
        case .OAEP: return .rsaEncryptionOAEPSHA1
        default: return nil
        }
    }
}
