import Foundation
import Security

/// SecCertificate over arbitrary bytes: `SecCertificateCreateWithData` gives nil or a
/// certificate whose data is the input byte for byte, and every accessor of a certificate
/// answers (a value or nil) without trapping, whatever its names, serial or extensions hold.
enum CertificateTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let data = Data(bytes)
        guard let certificate = SecCertificateCreateWithData(nil, data as CFData) else { return }
        guard SecCertificateCopyData(certificate) as Data == data else {
            fatalError("a certificate's data is not the bytes it was made from")
        }
        _ = SecCertificateCopySubjectSummary(certificate)
        var commonName: CFString?
        _ = SecCertificateCopyCommonName(certificate, &commonName)
        var addresses: CFArray?
        _ = SecCertificateCopyEmailAddresses(certificate, &addresses)
        _ = SecCertificateCopySerialNumberData(certificate, nil)
        _ = SecCertificateCopyNormalizedIssuerSequence(certificate)
        _ = SecCertificateCopyNormalizedSubjectSequence(certificate)
    }
}
