import Crypto
import Foundation
import Security
import Testing
import TestSupport

/// Certificates as keychain items by reference: the attributes Apple derives
/// (SecCertificate.c's SecCertificateCopyAttributeDictionary, SecItem.c's infer_cert_label),
/// checked against what `openssl x509` prints for openssl-made certificates; the certificate
/// primary key (ctyp, issr, slnr, agrp, sync); kSecReturnRef and kSecValueRef queries.
@Suite("Certificates as keychain items")
struct CertificateItemTests {
    private static func certificate(_ material: OpensslMaterial) throws -> SecCertificate {
        try #require(SecCertificateCreateWithData(nil, material.certificate as CFData))
    }

    @Test("SecCertificateCopyAttributeDictionary: derived attributes equal what openssl prints")
    func derivedAttributes() throws {
        let keychain = PrivateKeychain()
        let material = try OpensslMaterial(subject: "/CN=Item Test/O=Example", serial: "0x00f1e2d3")
        let certificate = try Self.certificate(material)
        var result: CFTypeRef?
        #expect(keychain.add([kSecValueRef as String: certificate, kSecReturnAttributes as String: true],
                             result: &result) == errSecSuccess)
        let attributes = try #require(result as? [String: Any])
        // serial=00F1E2D3 -> the content of the INTEGER, with the 00 DER needs before f1.
        let serial = try material.x509Prints(["-serial"])
        #expect(try #require(attributes[kSecAttrSerialNumber as String] as? Data).lowercaseHex
            == "00" + OpensslMaterial.hexDigits(String(serial.drop { $0 != "=" })).suffix(6))
        let keyIdentifier = try material.x509Prints(["-ext", "subjectKeyIdentifier"])
            .split(separator: "\n").dropFirst().joined()
        #expect(try #require(attributes[kSecAttrSubjectKeyID as String] as? Data).lowercaseHex
            == OpensslMaterial.hexDigits(keyIdentifier))
        // pkhh: SHA-1 of the subject public key bits, the X9.63 point of openssl's key.
        let publicKey = try P256.Signing.PublicKey(pemRepresentation: try material.x509Prints(["-pubkey"]))
        #expect(attributes[kSecAttrPublicKeyHash as String] as? Data
            == Data(Insecure.SHA1.hash(data: publicKey.x963Representation)))
        #expect((attributes[kSecAttrCertificateType as String] as? NSNumber)?.intValue == 3) // CSSM_CERT_X_509v3
        #expect((attributes[kSecAttrCertificateEncoding as String] as? NSNumber)?.intValue == 3) // CSSM_CERT_ENCODING_DER
        let subject = try #require(SecCertificateCopyNormalizedSubjectSequence(certificate) as Data?)
        #expect(attributes[kSecAttrSubject as String] as? Data == subject)
        // Self-signed: the issuer is the subject.
        #expect(attributes[kSecAttrIssuer as String] as? Data == subject)
        #expect(attributes[kSecAttrLabel as String] as? String == "Item Test")
        // A search by a derived attribute finds it.
        #expect(keychain.count([kSecClass as String: kSecClassCertificate,
                                kSecAttrPublicKeyHash as String: Data(Insecure.SHA1.hash(data: publicKey.x963Representation))])
            == 1)
    }

    @Test("SecItem.c infer_cert_label: a label the caller gives wins over the subject summary")
    func callerLabel() throws {
        let keychain = PrivateKeychain()
        let certificate = try Self.certificate(try OpensslMaterial())
        #expect(keychain.add([kSecValueRef as String: certificate, kSecAttrLabel as String: "mine"]) == errSecSuccess)
        #expect(keychain.attributes([kSecValueRef as String: certificate]).attributes?[kSecAttrLabel as String] as? String
            == "mine")
    }

    @Test("kSecReturnRef gives the SecCertificate, byte for byte; kSecReturnData its DER")
    func returnReference() throws {
        let keychain = PrivateKeychain()
        let material = try OpensslMaterial()
        #expect(keychain.add([kSecClass as String: kSecClassCertificate,
                              kSecValueRef as String: try Self.certificate(material)]) == errSecSuccess)
        let found = keychain.copyMatching([kSecClass as String: kSecClassCertificate, kSecReturnRef as String: true])
        let certificate = try #require(found.result as? SecCertificate)
        #expect(SecCertificateCopyData(certificate) as Data == material.certificate)
        #expect(keychain.secret([kSecClass as String: kSecClassCertificate]) == material.certificate)
    }

    @Test("The same certificate twice is errSecDuplicateItem; another serial is another item")
    func duplicates() throws {
        let keychain = PrivateKeychain()
        let first = try Self.certificate(try OpensslMaterial(serial: "0x01"))
        let second = try Self.certificate(try OpensslMaterial(serial: "0x02"))
        #expect(keychain.add([kSecValueRef as String: first]) == errSecSuccess)
        #expect(keychain.add([kSecValueRef as String: first]) == errSecDuplicateItem)
        #expect(keychain.add([kSecValueRef as String: first, kSecAttrLabel as String: "x"]) == errSecDuplicateItem)
        #expect(keychain.add([kSecValueRef as String: second]) == errSecSuccess)
        #expect(keychain.count([kSecClass as String: kSecClassCertificate]) == 2)
    }

    @Test("cook_query: delete by kSecValueRef removes that certificate only")
    func deleteByReference() throws {
        let keychain = PrivateKeychain()
        let first = try Self.certificate(try OpensslMaterial(serial: "0x01"))
        let second = try Self.certificate(try OpensslMaterial(serial: "0x02"))
        #expect(keychain.add([kSecValueRef as String: first]) == errSecSuccess)
        #expect(keychain.add([kSecValueRef as String: second]) == errSecSuccess)
        #expect(keychain.delete([kSecValueRef as String: first]) == errSecSuccess)
        #expect(keychain.copyMatching([kSecValueRef as String: first]).status == errSecItemNotFound)
        #expect(keychain.copyMatching([kSecValueRef as String: second]).status == errSecSuccess)
    }

    @Test("Design (lookups never decrypt the table): a search naming a certificate's whole primary key opens that item only")
    func primaryKeyLookupOpensOneItem() throws {
        let keychain = PrivateKeychain()
        let locked = try Self.certificate(try OpensslMaterial(serial: "0x01"))
        let always = try Self.certificate(try OpensslMaterial(serial: "0x02"))
        #expect(keychain.add([kSecValueRef as String: locked,
                              kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]) == errSecSuccess)
        #expect(keychain.add([kSecValueRef as String: always]) == errSecSuccess) // a certificate's default: dk
        #expect(keychain.run { SecKeychainLock(nil) } == errSecSuccess)
        // A scan of the class meets the locked item (errSecInteractionNotAllowed)...
        #expect(keychain.copyMatching([kSecClass as String: kSecClassCertificate, kSecReturnAttributes as String: true,
                                       kSecMatchLimit as String: kSecMatchLimitAll]).status == errSecInteractionNotAllowed)
        // ...a lookup by reference (ctyp, issr, slnr) goes through the identity index to its item alone.
        let found = keychain.copyMatching([kSecValueRef as String: always, kSecReturnRef as String: true])
        #expect(found.status == errSecSuccess)
        #expect((found.result as? SecCertificate).map { SecCertificateCopyData($0) as Data }
            == SecCertificateCopyData(always) as Data)
        #expect(keychain.copyMatching([kSecValueRef as String: locked, kSecReturnAttributes as String: true]).status
            == errSecInteractionNotAllowed)
    }

    @Test("SecCertificateCopyKey: the certificate's public key, equal to openssl's (P-256 and RSA)")
    func copyKey() throws {
        let ec = try OpensslMaterial()
        let ecKey = try #require(SecCertificateCopyKey(try Self.certificate(ec)))
        var error: Unmanaged<CFError>?
        #expect(SecKeyCopyExternalRepresentation(ecKey, &error) as Data?
            == (try P256.Signing.PrivateKey(pemRepresentation: ec.privateKeyPEM)).publicKey.x963Representation)
        let rsa = try OpensslMaterial(rsaBits: 2048)
        let rsaKey = try #require(SecCertificateCopyKey(try Self.certificate(rsa)))
        #expect(SecKeyCopyExternalRepresentation(rsaKey, &error) as Data? == (try rsa.rsaPKCS1(publicOnly: true)))
    }
}
