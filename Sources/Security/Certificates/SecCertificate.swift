import Foundation
import X509

/// An X.509 certificate: its DER bytes and what was parsed from them.
///
/// Create one with ``SecCertificateCreateWithData(_:_:)``; read it with the
/// `SecCertificateCopy...` functions. Immutable, so it may be shared between threads.
public final class SecCertificate: CoreFoundationTyped, Sendable {
    /// The DER encoding the certificate was created from, byte for byte.
    let derBytes: [UInt8]
    /// The certificate as swift-certificates parsed it: its extensions (the subject
    /// alternative names) are read from here.
    let parsed: Certificate
    /// The parts Apple's functions return as they appear in the encoding, which the parsed
    /// certificate does not keep byte for byte.
    let encodedParts: CertificateEncodedParts

    private init(derBytes: [UInt8], parsed: Certificate, encodedParts: CertificateEncodedParts) {
        self.derBytes = derBytes
        self.parsed = parsed
        self.encodedParts = encodedParts
    }

    /// Parses `derBytes`; nil unless they are exactly one DER-encoded certificate.
    static func make(derBytes: [UInt8]) -> SecCertificate? {
        guard let parsed = try? Certificate(derEncoded: derBytes),
              let encodedParts = CertificateEncodedParts(certificateDER: derBytes)
        else { return nil }
        return SecCertificate(derBytes: derBytes, parsed: parsed, encodedParts: encodedParts)
    }

    /// Unique among the types of the process, as Core Foundation's runtime-assigned
    /// identifiers are: the address of the class's metadata.
    package static var coreFoundationTypeID: CFTypeID {
        CFTypeID(bitPattern: ObjectIdentifier(SecCertificate.self).hashValue)
    }
}

/// The type identifier of certificates: what `CFGetTypeID` returns for a ``SecCertificate``.
@discardableResult
public func SecCertificateGetTypeID() -> CFTypeID {
    SecCertificate.coreFoundationTypeID
}

/// Creates a certificate from its DER representation.
///
/// As on Apple platforms the data must be one DER-encoded X.509 certificate: PEM text, a
/// truncated or damaged encoding, bytes after the certificate or anything else give nil.
///
/// - Parameters:
///   - allocator: Ignored; pass nil or `kCFAllocatorDefault`.
///   - data: The certificate's DER encoding.
/// - Returns: The certificate, or nil if `data` is not a DER-encoded certificate.
@discardableResult
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? {
    SecCertificate.make(derBytes: [UInt8](data as Data))
}

/// The DER representation of a certificate: the bytes it was created from.
///
/// - Parameter certificate: The certificate.
/// - Returns: Its DER encoding.
@discardableResult
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData {
    Data(certificate.derBytes) as CFData
}
