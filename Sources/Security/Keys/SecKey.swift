import Foundation

/// A cryptographic key: one half of an elliptic-curve (P-256, P-384, P-521) or RSA key pair.
///
/// Create one with ``SecKeyCreateRandomKey(_:_:)`` or ``SecKeyCreateWithData(_:_:_:)``, or
/// get one from the keychain with `kSecReturnRef`. Immutable, so it may be shared between
/// threads. The private material lives in swift-crypto's keys, whose memory is cleared when
/// they are freed.
public final class SecKey: CoreFoundationTyped, Sendable {
    /// The key itself.
    let material: KeyMaterial
    /// For a Secure Enclave-style private key (`kSecAttrTokenIDSecureEnclave`), what keeps its
    /// private part in the library and guards its use; nil for every other key.
    let secureEnclave: KeyUseBinding?
    /// For another private key found in the keychain whose access control needs the user, what
    /// guards its use; nil for every other key.
    let accessGuard: KeyUseBinding?

    init(material: KeyMaterial, secureEnclave: KeyUseBinding? = nil, accessGuard: KeyUseBinding? = nil) {
        self.material = material
        self.secureEnclave = secureEnclave
        self.accessGuard = accessGuard
    }

    /// Unique among the types of the process, as Core Foundation's runtime-assigned
    /// identifiers are: the address of the class's metadata.
    package static var coreFoundationTypeID: CFTypeID {
        CFTypeID(bitPattern: ObjectIdentifier(SecKey.self).hashValue)
    }
}

extension SecKey: CustomStringConvertible {
    /// The key's kind and size, never its material: as Apple's descriptions of keys, safe to log.
    public var description: String {
        let family = material.family == .rsa ? "RSA" : "ECSECPrimeRandom"
        let half = material.isPrivate ? "private" : "public"
        var token = secureEnclave == nil ? "" : ", token: \(kSecAttrTokenIDSecureEnclave)"
        if case .tpmPrivate = material { token += ", held in a TPM" }
        return "<SecKey algorithm id: \(family), key type: \(half), block size: \(material.bitCount) bits\(token)>"
    }
}

/// The type identifier of keys: what `CFGetTypeID` returns for a ``SecKey``.
@discardableResult
public func SecKeyGetTypeID() -> CFTypeID {
    SecKey.coreFoundationTypeID
}

/// Creates a key from its external representation.
///
/// The data is what ``SecKeyCopyExternalRepresentation(_:_:)`` gives: for elliptic-curve keys
/// the uncompressed point `04 ‖ X ‖ Y` (ANSI X9.63), followed by the private scalar `K` for a
/// private key; for RSA keys the PKCS #1 DER encoding of `RSAPublicKey` or `RSAPrivateKey`.
///
/// ```swift
/// let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
///                                  kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
/// var error: Unmanaged<CFError>?
/// let key = SecKeyCreateWithData(x963 as CFData, attributes as CFDictionary, &error)
/// ```
///
/// - Parameters:
///   - keyData: The key's external representation.
///   - attributes: `kSecAttrKeyType` (`kSecAttrKeyTypeECSECPrimeRandom` or
///     `kSecAttrKeyTypeRSA`) and `kSecAttrKeyClass` (`kSecAttrKeyClassPublic` or
///     `kSecAttrKeyClassPrivate`) are required; `kSecAttrKeySizeInBits` is not read: the
///     data gives the size, as on Apple platforms.
///   - error: Set to an error of the `OSStatus` domain (errSecParam for data that is not a
///     key of that kind) when the call fails; the caller takes it with `takeRetainedValue()`.
/// - Returns: The key, or nil on failure.
@discardableResult
public func SecKeyCreateWithData(_ keyData: CFData, _ attributes: CFDictionary,
                                 _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? {
    KeyFailure.returning(errorTo: error) { () throws(KeyFailure) -> SecKey in
        let description = try KeyAttributes(attributes)
        guard let family = description.family else {
            throw KeyFailure(.param, "kSecAttrKeyType is missing or not a supported key type")
        }
        guard let isPrivate = description.isPrivate else {
            throw KeyFailure(.param, "kSecAttrKeyClass is missing or not public or private")
        }
        // The copy holds a private key's secret: cleared once the key is made.
        var bytes = Data(copying: keyData)
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        let material = try KeyMaterial(externalRepresentation: bytes, family: family, isPrivate: isPrivate)
        return SecKey(material: material)
    }
}

/// The external representation of a key: the data ``SecKeyCreateWithData(_:_:_:)`` takes.
///
/// For a private key this is the secret itself; keep it no longer than needed.
///
/// - Parameters:
///   - key: The key.
///   - error: Set when the key cannot be exported: errSecUnimplemented ("export not
///     implemented for key …") for a Secure Enclave-style private key, as on Apple platforms.
/// - Returns: The representation, or nil on failure.
@discardableResult
public func SecKeyCopyExternalRepresentation(_ key: SecKey,
                                             _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    KeyFailure.returning(errorTo: error) { () throws(KeyFailure) -> CFData in
        try key.exportableMaterial().externalRepresentation as NSData
    }
}

/// The public half of a key: a new public key for a private key, the same key for a public one.
///
/// - Parameter key: A public or private key.
/// - Returns: The public key.
@discardableResult
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    key.material.isPrivate ? SecKey(material: key.material.publicKey) : key
}
