import Foundation

/// A certificate together with the private key of its public key.
///
/// Get one from the keychain with `kSecClassIdentity` and `kSecReturnRef`; add one with
/// `kSecValueRef`, which stores both halves. Immutable, so it may be shared between threads.
public final class SecIdentity: CoreFoundationTyped, Sendable {
    let certificate: SecCertificate
    let privateKey: SecKey

    init(certificate: SecCertificate, privateKey: SecKey) {
        self.certificate = certificate
        self.privateKey = privateKey
    }

    /// Unique among the types of the process, as Core Foundation's runtime-assigned
    /// identifiers are: the address of the class's metadata.
    package static var coreFoundationTypeID: CFTypeID {
        CFTypeID(bitPattern: ObjectIdentifier(SecIdentity.self).hashValue)
    }
}

/// The type identifier of identities: what `CFGetTypeID` returns for a ``SecIdentity``.
@discardableResult
public func SecIdentityGetTypeID() -> CFTypeID {
    SecIdentity.coreFoundationTypeID
}

/// Copies the certificate of an identity.
///
/// - Parameters:
///   - identityRef: The identity.
///   - certificateRef: Set to the certificate.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecIdentityCopyCertificate(_ identityRef: SecIdentity,
                                       _ certificateRef: UnsafeMutablePointer<SecCertificate?>) -> OSStatus {
    certificateRef.pointee = identityRef.certificate
    return errSecSuccess
}

/// Copies the private key of an identity.
///
/// - Parameters:
///   - identityRef: The identity.
///   - privateKeyRef: Set to the private key.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecIdentityCopyPrivateKey(_ identityRef: SecIdentity,
                                      _ privateKeyRef: UnsafeMutablePointer<SecKey?>) -> OSStatus {
    privateKeyRef.pointee = identityRef.privateKey
    return errSecSuccess
}
