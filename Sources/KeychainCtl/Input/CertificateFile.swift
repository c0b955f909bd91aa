import Foundation
import Security
import SwiftASN1

/// Certificates read from a file, as `security` takes them: DER (one certificate) or PEM
/// (one or more `CERTIFICATE` blocks; other blocks are left out).
enum CertificateFile {
    /// More than any certificate file holds; a bound so a device or a huge file cannot
    /// exhaust memory.
    static let sizeLimit = 16 << 20

    /// The certificates of the file at `path`; an error naming the file when it holds none.
    static func certificates(at path: String) throws(ToolFailure) -> [SecCertificate] {
        let bytes = try BoundedFile.read(path, limit: sizeLimit)
        let certificates = certificates(in: bytes)
        guard !certificates.isEmpty else {
            throw .other("\(path) holds no certificate (DER or PEM)")
        }
        return certificates
    }

    /// The certificates of file contents: PEM blocks when the text has any, else one DER
    /// certificate; none when neither reads.
    static func certificates(in bytes: Data) -> [SecCertificate] {
        if let blocks = pemBlocks(in: bytes) {
            return blocks.filter { $0.discriminator == "CERTIFICATE" }
                .compactMap { SecCertificateCreateWithData(nil, Data($0.derBytes) as CFData) }
        }
        return SecCertificateCreateWithData(nil, bytes as CFData).map { [$0] } ?? []
    }

    /// The PEM blocks of text, or nil when it is not PEM text.
    static func pemBlocks(in bytes: Data) -> [PEMDocument]? {
        guard let text = String(data: bytes, encoding: .utf8), text.contains("-----BEGIN ") else { return nil }
        return try? PEMDocument.parseMultiple(pemString: text)
    }

    /// A certificate as a PEM block, 64 columns, as `security find-certificate -p` prints it.
    static func pem(_ certificate: SecCertificate) -> String {
        let der = SecCertificateCopyData(certificate) as Data
        return PEMDocument(type: "CERTIFICATE", derBytes: Array(der)).pemString + "\n"
    }
}
