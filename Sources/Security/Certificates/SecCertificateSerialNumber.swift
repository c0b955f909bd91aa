import Foundation

/// Copies a certificate's serial number: the content bytes of its DER INTEGER, without tag
/// and length.
///
/// As on Apple platforms, a positive serial whose first byte has its high bit set keeps the
/// zero byte that DER puts before it (`00 80 01` for the serial 0x8001).
///
/// - Parameters:
///   - certificate: The certificate.
///   - error: Not set: every certificate this API creates has a serial number.
/// - Returns: The serial number's bytes.
@discardableResult
public func SecCertificateCopySerialNumberData(
    _ certificate: SecCertificate, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    Data(certificate.encodedParts.serialNumberContent) as CFData
}
