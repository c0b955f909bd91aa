import Foundation

/// Imports the identities of a PKCS #12 file (`.p12`, `.pfx`): each private key with its
/// certificate, the certificate's chain from the file and a trust object for it.
///
/// Reads what OpenSSL 3 writes by default (PBES2 with PBKDF2 and AES-256-CBC, an HMAC-SHA-256
/// integrity check) and what older tools and Apple write (PKCS #12's Triple DES and 40-bit RC2
/// schemes, an HMAC-SHA-1 check). As on iOS, nothing is added to a keychain: add an identity
/// with `SecItemAdd` and `kSecValueRef`.
///
/// ```swift
/// var items: CFArray?
/// let status = SecPKCS12Import(p12 as CFData, [kSecImportExportPassphrase as String: "secret"] as CFDictionary, &items)
/// ```
///
/// - Parameters:
///   - pkcs12_data: The file's bytes (DER).
///   - options: `kSecImportExportPassphrase`, the file's passphrase (a string); none is the
///     empty passphrase.
///   - items: Set on success to an array with a dictionary per identity:
///     `kSecImportItemIdentity` (a ``SecIdentity``), `kSecImportItemCertChain` (its
///     certificate first, then the issuers the file holds, in order), `kSecImportItemTrust`
///     (a ``SecTrust`` for that chain under the basic X.509 policy, not yet evaluated), and,
///     when the file names them, `kSecImportItemLabel` (the friendly name) and
///     `kSecImportItemKeyID` (the local key identifier).
/// - Returns: `errSecSuccess`; `errSecAuthFailed` for a wrong passphrase;
///   `errSecPassphraseRequired` when none was given and the file needs one; `errSecDecode`
///   for a file that is not PKCS #12 or is damaged, or that uses a scheme this module does not
///   read (public-key integrity or privacy); `errSecParam` for a file whose parameters exceed
///   the bounds that keep a hostile file from costing minutes of work, or options that are
///   not a dictionary of the expected types.
@discardableResult
public func SecPKCS12Import(_ pkcs12_data: CFData, _ options: CFDictionary, _ items: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    let givenPassphrase = (options as? [String: Any])?[kSecImportExportPassphrase as String]
    if let givenPassphrase, FoundationValues.string(givenPassphrase) == nil { return errSecParam }
    let passphrase = givenPassphrase.flatMap(FoundationValues.string) ?? ""
    var archive: PKCS12Archive
    do {
        archive = try PKCS12Archive(derBytes: [UInt8](pkcs12_data as Data), passphrase: passphrase)
    } catch .wrongPassphrase where givenPassphrase == nil {
        return errSecPassphraseRequired
    } catch {
        return error.status
    }
    let certificates = archive.certificates.compactMap { entry in
        SecCertificate.make(derBytes: entry.der).map { (certificate: $0, attributes: entry.attributes) }
    }
    // The decrypted keys are cleared once they are SecKeys (whose memory swift-crypto clears).
    defer {
        for index in archive.privateKeys.indices {
            _ = archive.privateKeys[index].privateKeyInfo.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
        }
    }
    var results: [NSDictionary] = []
    for entry in archive.privateKeys {
        var keyBytes = Data(entry.privateKeyInfo)
        defer { keyBytes.resetBytes(in: 0..<keyBytes.count) }
        guard let material = try? KeyMaterial(privateKeyDER: keyBytes) else { return errSecDecode }
        let key = SecKey(material: material)
        let publicKey = material.publicKey.publicExternalRepresentation
        // The key's certificate: the one with the same local key identifier, else the one
        // whose public key is the key's.
        let match = certificates.first { candidate in
            entry.attributes.localKeyID != nil && candidate.attributes.localKeyID == entry.attributes.localKeyID
        } ?? certificates.first { candidate in
            SecCertificateCopyKey(candidate.certificate).map { $0.material.publicExternalRepresentation == publicKey } ?? false
        }
        guard let match else { continue }
        let chain = PKCS12Chain.ordered(from: match.certificate, among: certificates.map(\.certificate))
        var trust: SecTrust?
        guard SecTrustCreateWithCertificates(chain as CFArray, SecPolicyCreateBasicX509(), &trust) == errSecSuccess,
              let trust else { return errSecInternalComponent }
        let result = NSMutableDictionary()
        result[kSecImportItemIdentity as String] = SecIdentity(certificate: match.certificate, privateKey: key)
        result[kSecImportItemCertChain as String] = chain as NSArray
        result[kSecImportItemTrust as String] = trust
        if let label = entry.attributes.friendlyName ?? match.attributes.friendlyName {
            result[kSecImportItemLabel as String] = label
        }
        if let keyID = entry.attributes.localKeyID ?? match.attributes.localKeyID {
            result[kSecImportItemKeyID as String] = Data(keyID) as NSData
        }
        results.append(result)
    }
    items.pointee = results as NSArray
    return errSecSuccess
}

/// A certificate's chain among the certificates of a file: it, then its issuer, then that
/// one's, as far as the file goes.
enum PKCS12Chain {
    static func ordered(from leaf: SecCertificate, among certificates: [SecCertificate]) -> [SecCertificate] {
        var chain = [leaf]
        var current = leaf
        while current.parsed.issuer != current.parsed.subject,
              let issuer = certificates.first(where: { candidate in
                  candidate.parsed.subject == current.parsed.issuer && !chain.contains { $0 === candidate }
              }) {
            chain.append(issuer)
            current = issuer
        }
        return chain
    }
}
