import Foundation
@_implementationOnly import KeychainCore

/// What ``SecKeyCreateRandomKey(_:_:)`` does with `kSecAttrTokenID`: a Secure Enclave-style
/// key (see ``KeyUseBinding``) for `kSecAttrTokenIDSecureEnclave`, with the
/// restrictions of Apple's Secure Enclave.
enum SecureEnclaveKeyGeneration {
    private static let tokenIDKey = kSecAttrTokenID as String
    private static let accessControlKey = kSecAttrAccessControl as String
    private static let accessibleKey = kSecAttrAccessible as String

    /// The protection a Secure Enclave-style key gets when its attributes name none: the
    /// keychain's default class (`kSecAttrAccessibleWhenUnlocked`) bound to this machine.
    static let defaultProtection = kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String

    /// The binding of the key `parameters` ask for, or nil when they name no token.
    ///
    /// - Throws: errSecParam for another token, a key that is not P-256
    ///   (`kSecAttrKeyTypeECSECPrimeRandom` or `kSecAttrKeyTypeEC`, 256 bits), or a private
    ///   key protection that is not a ThisDeviceOnly class: such a key is bound to this
    ///   machine and can never move to another.
    static func binding(for parameters: [String: Any], family: KeyMaterial.Family,
                        bitCount: Int?) throws(KeyFailure) -> KeyUseBinding? {
        guard let tokenValue = parameters[tokenIDKey] else { return nil }
        guard FoundationValues.string(tokenValue) == kSecAttrTokenIDSecureEnclave as String else {
            throw KeyFailure(.param, "kSecAttrTokenID names a token that is not available; the only one is kSecAttrTokenIDSecureEnclave")
        }
        guard family == .ellipticCurve, bitCount == 256 else {
            throw KeyFailure(.param, "Secure Enclave keys are 256-bit elliptic-curve keys (kSecAttrKeyTypeECSECPrimeRandom), not \(family == .rsa ? "RSA" : "EC") of \(bitCount.map(String.init) ?? "no") bits")
        }
        let attributes = try KeyGeneration.attributes(of: kSecPrivateKeyAttrs, in: parameters)
        var accessControl: SecAccessControl?
        var protection = attributes[accessibleKey].flatMap(FoundationValues.string)
        if let value = attributes[accessControlKey] {
            guard let given = value as? SecAccessControl else {
                throw KeyFailure(.param, "kSecAttrAccessControl takes a SecAccessControl")
            }
            accessControl = given
            protection = given.protection
        }
        if let protection, Accessibility(rawValue: protection)?.isThisDeviceOnly != true {
            throw KeyFailure(.param, "a Secure Enclave key's protection must be a ThisDeviceOnly class, not '\(protection)'")
        }
        var authentication = AuthenticationOptions()
        for (key, value) in parameters where AuthenticationOptions.keys.contains(key) {
            do {
                try authentication.read(value, for: key)
            } catch {
                throw KeyFailure(code: error.status, error.description)
            }
        }
        return KeyUseBinding(accessControl: accessControl, authentication: authentication)
    }

    /// A new Secure Enclave-style private key: made in the TPM this process uses
    /// (``TrustedPlatformModule/selected(environment:)``) when there is one, else a P-256 key
    /// that the keychain seals.
    ///
    /// - Throws: errSecNotAvailable when the TPM cannot make the key: a TPM that was asked for
    ///   and fails never silently gives a key that is not in it.
    static func privateKey() throws(KeyFailure) -> KeyMaterial {
        guard let tpm = TrustedPlatformModule.selected() else {
            return .ellipticCurvePrivate(EllipticCurvePrivateKey(randomOn: .p256))
        }
        return .tpmPrivate(try tpm.makeKey())
    }

    /// The public half of a Secure Enclave-style key is an ordinary key: the token named at
    /// the top level is the private key's alone, which its item takes from the key itself
    /// (``SecKey/itemAttributes``, with its ThisDeviceOnly protection).
    static func removeToken(fromPublicHalf attributes: inout [String: Any]) {
        attributes[tokenIDKey] = nil
    }
}
