import Crypto
import Foundation
import Security

/// The fingerprints `security` prints for certificates (`-Z`) and identities: digests of the
/// DER encoding, in uppercase hex.
enum CertificateDigest {
    static func sha1(_ certificate: SecCertificate) -> String {
        HexDigits.string(Insecure.SHA1.hash(data: SecCertificateCopyData(certificate) as Data), uppercase: true)
    }

    static func sha256(_ certificate: SecCertificate) -> String {
        HexDigits.string(SHA256.hash(data: SecCertificateCopyData(certificate) as Data), uppercase: true)
    }
}
