import Foundation
#if canImport(Glibc)
import Glibc
#endif
@_implementationOnly import KeychainCore
import Logging
import SwiftASN1
import X509

/// The distribution's trusted root certificates: the anchors of an evaluation whose own anchors
/// do not replace them.
///
/// Read once per process, on first use, from the CA bundle the distribution keeps up to date
/// (`update-ca-certificates` on Debian and Ubuntu, `update-ca-trust` on Fedora). The paths are
/// those swift-certificates searches; its own store is not used because one certificate it
/// cannot parse empties the whole store, where this one leaves out that certificate alone.
package enum SystemTrustRoots {
    /// The CA bundles of the distributions, first found wins.
    static let bundlePaths = [
        "/etc/ssl/certs/ca-certificates.crt",  // Debian, Ubuntu, Arch, Alpine
        "/etc/pki/tls/certs/ca-bundle.crt",  // Fedora, RHEL
    ]

    /// More than any distribution's bundle (about 200 KiB), so that a wrong file cannot take
    /// unbounded memory.
    private static let bundleLimit = 16 << 20

    /// The roots, loaded on first use; empty when no bundle can be read.
    package static let certificates: [Certificate] = load(from: bundlePaths)

    /// The roots as the verifier looks them up, indexed once.
    static let store = CertificateStore(certificates)

    private static let logger = Logger(label: "swift-keychain.Security.Trust")

    /// The certificates of the first bundle of `paths` that can be read; each certificate the
    /// parser refuses is left out.
    static func load(from paths: [String]) -> [Certificate] {
        for path in paths {
            let text: String
            do {
                guard let bytes = try readBundle(at: path) else { continue }
                text = String(decoding: bytes, as: UTF8.self)
            } catch {
                logger.warning("Cannot read the system CA bundle: \(error)")
                continue
            }
            return certificates(inPEM: text)
        }
        return []
    }

    /// The certificates of a PEM text, each block parsed apart from the others.
    static func certificates(inPEM text: String) -> [Certificate] {
        let begin = "-----BEGIN CERTIFICATE-----", end = "-----END CERTIFICATE-----"
        var found: [Certificate] = []
        var rest = text[...]
        while let start = rest.range(of: begin), let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) {
            if let document = try? PEMDocument(pemString: String(rest[start.lowerBound..<stop.upperBound])),
               let certificate = try? Certificate(pemDocument: document) {
                found.append(certificate)
            }
            rest = rest[stop.upperBound...]
        }
        return found
    }

    /// The bytes of the bundle at `path`, or nil when there is none. Links are followed, as
    /// distributions install the bundle through them (Fedora's is one); what is opened must be
    /// a regular file that only its owner, root or this user, may change.
    private static func readBundle(at path: String) throws -> Data? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw KeychainError.notAvailable("cannot open the CA bundle \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw KeychainError.notAvailable("the CA bundle \(path) is not a regular file")
        }
        guard status.st_uid == 0 || status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else {
            throw KeychainError.notAvailable("the CA bundle \(path) may be changed by other users; it is not used")
        }
        return try PrivateFile.readAll(fd, limit: bundleLimit, path: path, role: "CA bundle")
    }
}
