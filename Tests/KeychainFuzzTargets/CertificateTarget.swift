import Foundation
import Security

/// SecCertificate over arbitrary bytes: `SecCertificateCreateWithData` gives nil or a
/// certificate whose data is the input byte for byte, and every accessor of a certificate
/// answers (a value or nil) without trapping, whatever its names, serial, key or extensions
/// hold; its public key comes out as a SecKey or nil, and a trust evaluation of it as its own
/// anchor, under the basic and the SSL policy, gives a verdict.
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
        if let key = SecCertificateCopyKey(certificate) {
            _ = SecKeyCopyExternalRepresentation(key, nil)
            _ = SecKeyCopyAttributes(key)
        }
        for policy in [SecPolicyCreateBasicX509(), SecPolicyCreateSSL(true, "fuzz.example.com" as CFString)] {
            var trust: SecTrust?
            guard SecTrustCreateWithCertificates(certificate, policy, &trust) == errSecSuccess, let trust else {
                fatalError("a certificate did not make a trust")
            }
            _ = SecTrustSetAnchorCertificates(trust, [certificate] as CFArray)
            var error: CFError?
            _ = SecTrustEvaluateWithError(trust, &error)
            _ = SecTrustCopyKey(trust)
        }
    }
}
