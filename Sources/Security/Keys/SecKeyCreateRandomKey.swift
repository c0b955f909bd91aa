import Foundation

extension KeyFailure {
    /// A failure with a status another Keychain Services call returned.
    init(code: OSStatus, _ message: String) {
        status = code
        self.message = message
    }
}

/// New key pairs for ``SecKeyCreateRandomKey(_:_:)``.
enum KeyGeneration {
    /// A new private key of the family and size.
    static func privateKey(family: KeyMaterial.Family, bitCount: Int?) throws(KeyFailure) -> KeyMaterial {
        guard let bitCount else {
            throw KeyFailure(.param, "kSecAttrKeySizeInBits is missing")
        }
        switch family {
        case .ellipticCurve:
            guard let curve = EllipticCurve(bitCount: bitCount) else {
                throw KeyFailure(.param, "EC keys are 256, 384 or 521 bits, not \(bitCount)")
            }
            return .ellipticCurvePrivate(EllipticCurvePrivateKey(randomOn: curve))
        case .rsa:
            // Apple's bounds, with Apple's status outside them. Inside them, BoringSSL makes
            // only multiples of 128 bits, where Apple makes any size.
            let bounds = RSAPrivateKey.generatedBitCountBounds
            guard bounds.contains(bitCount) else {
                throw KeyFailure(.keySizeNotAllowed,
                                 "RSA keys are generated with \(bounds.lowerBound) to \(bounds.upperBound) bits, not \(bitCount)")
            }
            guard RSAPrivateKey.generates(bitCount: bitCount) else {
                throw KeyFailure(.param, "RSA keys are generated in steps of 128 bits, not \(bitCount)")
            }
            guard let key = RSAPrivateKey(generatingBitCount: bitCount) else {
                throw KeyFailure(.internalComponent, "RSA key generation failed")
            }
            return .rsaPrivate(key)
        }
    }

    /// The query naming the item an add of `attributes` made: the key by reference, in the
    /// keychain and access group the add used.
    private static func itemQuery(of attributes: [String: Any]) -> [String: Any] {
        attributes.filter { [kSecValueRef, kSecUseKeychain, kSecAttrAccessGroup].map { $0 as String }.contains($0.key) }
    }

    /// One half's attributes: its sub-dictionary (`kSecPublicKeyAttrs` or
    /// `kSecPrivateKeyAttrs`) over the top-level parameters.
    static func attributes(of attributesKey: CFString, in parameters: [String: Any]) throws(KeyFailure) -> [String: Any] {
        var attributes = parameters
        if let own = parameters[attributesKey as String] {
            guard let own = own as? [String: Any] else {
                throw KeyFailure(.param, "\(attributesKey) is not a dictionary")
            }
            attributes.merge(own) { _, own in own }
        }
        return attributes
    }

    /// Stores the halves whose attributes say `kSecAttrIsPermanent`, as Apple does
    /// (SecKey.c, SecKeyGeneratePair): each half's attributes are its sub-dictionary
    /// (`kSecPublicKeyAttrs`, `kSecPrivateKeyAttrs`) over the top-level ones, without the
    /// generation parameters, added with `kSecValueRef`.
    static func storePermanentHalves(of privateKey: SecKey, parameters: [String: Any]) throws(KeyFailure) {
        let halves: [(SecKey, CFString)] = [
            (SecKey(material: privateKey.material.publicKey), kSecPublicKeyAttrs),
            (privateKey, kSecPrivateKeyAttrs),
        ]
        var additions: [(SecKey, [String: Any])] = []
        for (key, attributesKey) in halves {
            var attributes = try Self.attributes(of: attributesKey, in: parameters)
            for generationOnly in [kSecPublicKeyAttrs, kSecPrivateKeyAttrs, kSecAttrKeyType, kSecAttrKeySizeInBits] {
                attributes[generationOnly as String] = nil
            }
            if privateKey.secureEnclave != nil && key !== privateKey {
                SecureEnclaveKeyGeneration.removeToken(fromPublicHalf: &attributes)
            }
            let permanent = attributes[kSecAttrIsPermanent as String].flatMap(FoundationValues.boolean) ?? false
            if permanent { additions.append((key, attributes)) }
        }
        var stored: [[String: Any]] = []
        for (key, var attributes) in additions {
            attributes[kSecValueRef as String] = key
            let status = SecItemAdd(attributes as CFDictionary, nil)
            guard status == errSecSuccess else {
                // All or nothing: a half already stored (the public key) is taken out again.
                for added in stored { SecItemDelete(added as CFDictionary) }
                throw KeyFailure(code: status, "the new key could not be stored in the keychain")
            }
            stored.append(Self.itemQuery(of: attributes))
        }
    }
}

/// Generates a new key pair and returns its private key.
///
/// ```swift
/// let parameters: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
///                                  kSecAttrKeySizeInBits as String: 256]
/// var error: Unmanaged<CFError>?
/// guard let privateKey = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else {
///     throw error!.takeRetainedValue() as Error
/// }
/// let publicKey = SecKeyCopyPublicKey(privateKey)
/// ```
///
/// - Parameters:
///   - parameters: `kSecAttrKeyType` (`kSecAttrKeyTypeECSECPrimeRandom` or
///     `kSecAttrKeyTypeRSA`) and `kSecAttrKeySizeInBits` (256, 384 or 521 for
///     elliptic-curve keys; 512 to 8192 in steps of 128 for RSA, as Apple's bounds, though
///     below 2048 bits only for older protocols and tests) are required. With
///     `kSecAttrIsPermanent` true, at the top level or in `kSecPrivateKeyAttrs` /
///     `kSecPublicKeyAttrs`, that half is stored in the keychain with the attributes given
///     there (label, application tag, access group, accessibility). With `kSecAttrTokenID`
///     `kSecAttrTokenIDSecureEnclave` (P-256 only) the key is a Secure Enclave-style key: its
///     private part never leaves the library, a stored one is bound to this machine (its
///     protection must be a ThisDeviceOnly class; `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`
///     when none is given), and using it first proves what its `kSecAttrAccessControl` asks,
///     through the `kSecUseAuthenticationContext` given here, with `kSecUseOperationPrompt` as
///     the reason. Such a key is made in the TPM 2.0 that `KEYCHAIN_TPM_TCTI` names, or in
///     `/dev/tpmrm0` when it can be used, and then only signs (ECDSA); without a TPM it is
///     sealed in software as above.
///   - error: Set on failure: errSecKeySizeNotAllowed for an RSA size outside Apple's
///     bounds, errSecParam for a missing or unsupported type or size (or a
///     Secure Enclave-style key that is not P-256 or not ThisDeviceOnly), errSecNotAvailable
///     when the TPM named cannot make the key, or the status of storing the key.
/// - Returns: The private key, or nil on failure.
@discardableResult
public func SecKeyCreateRandomKey(_ parameters: CFDictionary,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? {
    KeyFailure.returning(errorTo: error) { () throws(KeyFailure) -> SecKey in
        try KeyGeneration.randomKey(parameters)
    }
}

/// Generates a new key pair, as ``SecKeyCreateRandomKey(_:_:)`` does with the same
/// parameters (and stores the halves whose attributes say `kSecAttrIsPermanent`): the older
/// call, which code written before it (EllipticCurveKeyPair, Heimdall) still makes.
///
/// - Parameters:
///   - publicKey: Set to the new public key; may be nil.
///   - privateKey: Set to the new private key; may be nil.
/// - Returns: errSecSuccess, or the status ``SecKeyCreateRandomKey(_:_:)`` would report
///   (errSecKeySizeNotAllowed or errSecParam for a size it does not make, errSecParam for a
///   missing or unsupported type); the keys are then left alone.
@available(iOS, deprecated: 15.0, message: "Use SecKeyCreateRandomKey")
@available(macOS, deprecated: 12.0, message: "Use SecKeyCreateRandomKey")
@discardableResult
public func SecKeyGeneratePair(_ parameters: CFDictionary, _ publicKey: UnsafeMutablePointer<SecKey?>?,
                               _ privateKey: UnsafeMutablePointer<SecKey?>?) -> OSStatus {
    do throws(KeyFailure) {
        let key = try KeyGeneration.randomKey(parameters)
        publicKey?.pointee = SecKeyCopyPublicKey(key)
        privateKey?.pointee = key
        return errSecSuccess
    } catch {
        return error.status
    }
}

extension KeyGeneration {
    /// A new private key as the parameters describe it, its permanent halves stored.
    static func randomKey(_ parameters: CFDictionary) throws(KeyFailure) -> SecKey {
        let description = try KeyAttributes(parameters)
        guard let family = description.family else {
            throw KeyFailure(.param, "kSecAttrKeyType is missing or not a supported key type")
        }
        let values = parameters as? [String: Any] ?? [:]
        let secureEnclave = try SecureEnclaveKeyGeneration.binding(for: values, family: family, bitCount: description.bitCount)
        let material = secureEnclave == nil
            ? try KeyGeneration.privateKey(family: family, bitCount: description.bitCount)
            : try SecureEnclaveKeyGeneration.privateKey()
        let key = SecKey(material: material, secureEnclave: secureEnclave)
        try KeyGeneration.storePermanentHalves(of: key, parameters: values)
        return key
    }
}
