import Crypto
import Foundation

/// A NIST elliptic-curve private key of CryptoKit (swift-crypto on Linux), which the keychain
/// keeps as a key item (`kSecClassKey`) through `SecKey`, as Apple's "Storing CryptoKit Keys in
/// the Keychain" describes: the X9.63 representation goes in and comes out.
///
/// P-256, P-384 and P-521 signing and key-agreement private keys conform. Store them with
/// ``CryptoKeyStore``.
public protocol SecKeyConvertible: Sendable {
    /// The key's size in bits, as the keychain records it (`kSecAttrKeySizeInBits`).
    static var keySizeInBits: Int { get }
    /// The ANSI X9.63 representation: `04 ‖ X ‖ Y ‖ K`.
    var x963Representation: Data { get }
    /// The key of an X9.63 representation.
    init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws
}

extension P256.Signing.PrivateKey: SecKeyConvertible {
    public static var keySizeInBits: Int { 256 }
}

extension P256.KeyAgreement.PrivateKey: SecKeyConvertible {
    public static var keySizeInBits: Int { 256 }
}

extension P384.Signing.PrivateKey: SecKeyConvertible {
    public static var keySizeInBits: Int { 384 }
}

extension P384.KeyAgreement.PrivateKey: SecKeyConvertible {
    public static var keySizeInBits: Int { 384 }
}

extension P521.Signing.PrivateKey: SecKeyConvertible {
    public static var keySizeInBits: Int { 521 }
}

extension P521.KeyAgreement.PrivateKey: SecKeyConvertible {
    public static var keySizeInBits: Int { 521 }
}
