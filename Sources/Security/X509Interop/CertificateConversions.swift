import Foundation
import SwiftASN1
import X509

// swift-certificates declares these two conversions itself, in `#if canImport(Security)`
// code. That code never sees this module: `Security` depends on `X509`, so `X509` is always
// compiled first. Declaring them here, with the same names and signatures, lets code written
// for Apple platforms compile unchanged on Linux.

extension Certificate {
    /// Creates a ``Certificate`` from a `SecCertificate`, as swift-certificates does on Apple
    /// platforms: by parsing the certificate's DER encoding.
    ///
    /// - Parameter certificate: The certificate to convert.
    /// - Throws: swift-certificates' parsing errors, which a `SecCertificate` (itself parsed
    ///   when created) does not raise in practice.
    public init(_ certificate: SecCertificate) throws {
        try self.init(derEncoded: certificate.derBytes)
    }
}

extension SecCertificate {
    /// Creates a `SecCertificate` from a swift-certificates `Certificate`, as swift-certificates does on Apple
    /// platforms: from the certificate's DER encoding.
    ///
    /// - Parameter certificate: The certificate to convert.
    /// - Returns: A certificate whose `SecCertificateCopyData` is `certificate`'s DER encoding.
    /// - Throws: The serializer's errors, or `ASN1Error.invalidASN1Object` when the encoding
    ///   is not one that `SecCertificateCreateWithData` accepts (where Apple's version would
    ///   stop the process).
    public static func makeWithCertificate(_ certificate: Certificate) throws -> SecCertificate {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        guard let made = SecCertificate.make(derBytes: serializer.serializedBytes) else {
            throw ASN1Error.invalidASN1Object(reason: "the certificate's DER encoding is not one SecCertificateCreateWithData accepts")
        }
        return made
    }
}
