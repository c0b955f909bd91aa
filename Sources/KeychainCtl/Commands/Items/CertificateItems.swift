import Foundation
import Security

/// A certificate item as keychainctl reads it back: the certificate and the item.
struct CertificateItem {
    let certificate: SecCertificate
    let item: KeychainItem

    /// The name `-c` matches and listings show: the common name, else the label.
    var name: String {
        var commonName: CFString?
        if SecCertificateCopyCommonName(certificate, &commonName) == errSecSuccess, let commonName {
            return commonName as String
        }
        return item.attributes[kSecAttrLabel as String] as? String ?? ""
    }

    /// The certificate's email addresses.
    var emailAddresses: [String] {
        var addresses: CFArray?
        guard SecCertificateCopyEmailAddresses(certificate, &addresses) == errSecSuccess else { return [] }
        return (addresses as? [String]) ?? []
    }
}

extension ItemStore {
    /// Every certificate item in the keychain, in insertion order, with its certificate.
    func certificates() throws -> [CertificateItem] {
        try all([kSecClass as String: kSecClassCertificate], withData: true).compactMap { item in
            guard let data = item.data, let certificate = SecCertificateCreateWithData(nil, data as CFData) else { return nil }
            return CertificateItem(certificate: certificate, item: item)
        }
    }
}
