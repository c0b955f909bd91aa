import Foundation

// keychainctl's import and export: conversions the Apple API of iOS has no call for, visible
// inside this package only, over the same code as SecPKCS12Import and SecKeyCreateWithData.

/// A private key from PKCS #8, SEC 1 or PKCS #1 DER (the contents of PEM `PRIVATE KEY`,
/// `EC PRIVATE KEY` and `RSA PRIVATE KEY` blocks); nil when it is none of them.
package func SecKeyCreateWithPrivateKeyDER(_ der: Data) -> SecKey? {
    (try? KeyMaterial(privateKeyDER: der)).map { SecKey(material: $0) }
}

/// Identities as one PKCS #12 file under `passphrase`, written as OpenSSL 3 writes by default
/// (PBES2 with PBKDF2-HMAC-SHA-256 and AES-256-CBC, an HMAC-SHA-256 integrity check): each
/// identity's key and certificate share a local key identifier and, when the certificate has
/// one, its subject summary as friendly name.
package func SecPKCS12Export(_ identities: [SecIdentity], passphrase: String) throws(SecKeychainFailure) -> Data {
    var keys: [PKCS12PrivateKey] = []
    var certificates: [PKCS12Certificate] = []
    for identity in identities {
        let material: KeyMaterial
        do {
            material = try identity.privateKey.exportableMaterial()
        } catch {
            throw SecKeychainFailure(status: error.status, reason: "an identity's key is a Secure Enclave key, which never leaves this machine")
        }
        guard var privateKeyInfo = material.pkcs8DERRepresentation else {
            throw SecKeychainFailure(status: errSecParam, reason: "an identity's key is not a private key")
        }
        defer { privateKeyInfo.resetBytes(in: 0..<privateKeyInfo.count) }
        let name = SecCertificateCopySubjectSummary(identity.certificate).map { $0 as String }
        let archive: PKCS12Archive
        do {
            archive = try PKCS12Archive(identityKey: [UInt8](privateKeyInfo), certificateChain: [identity.certificate.derBytes],
                                        friendlyName: name)
        } catch {
            throw SecKeychainFailure(status: error.status, reason: error.description)
        }
        keys += archive.privateKeys
        certificates += archive.certificates
    }
    do {
        return Data(try PKCS12Archive(privateKeys: keys, certificates: certificates).derBytes(passphrase: passphrase))
    } catch {
        throw SecKeychainFailure(status: error.status, reason: error.description)
    }
}
