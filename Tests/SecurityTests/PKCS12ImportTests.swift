import Crypto
import Foundation
import Security
import Testing
import TestSupport

/// SecPKCS12Import on files `openssl pkcs12 -export` writes (OpenSSL 3's default and
/// `-legacy`): each identity comes back as Apple returns it, its key and certificates equal
/// to what openssl gives for the same files, and the identity goes into the keychain with
/// `SecItemAdd` as on iOS.
@Suite("SecPKCS12Import")
struct PKCS12ImportTests {
    let keychainFiles = PrivateKeychain()

    static let forms: [(String, [String])] = [("OpenSSL 3 default", []), ("legacy", ["-legacy"])]

    /// The one item of a file with one identity.
    static func importOne(_ p12: [UInt8], passphrase: String) throws -> [String: Any] {
        var items: CFArray?
        let status = SecPKCS12Import(Data(p12) as CFData, [kSecImportExportPassphrase as String: passphrase] as CFDictionary, &items)
        try #require(status == errSecSuccess, "status \(status)")
        let all = try #require(items as? [[String: Any]])
        try #require(all.count == 1)
        return all[0]
    }

    @Test("An identity: its certificate and chain as openssl wrote them, its key openssl's, its label and key ID",
          arguments: [PKCS12Tests.KeyType.p256, .rsa2048], forms.map(\.0))
    func importsTheIdentity(keyType: PKCS12Tests.KeyType, form: String) throws {
        let identity = try PKCS12Tests.Identity(keyType)
        let options = Self.forms.first { $0.0 == form }?.1 ?? []
        let item = try Self.importOne(try identity.export(passphrase: "pass word", name: "My Identity", options: options),
                                      passphrase: "pass word")

        let secIdentity = try #require(item[kSecImportItemIdentity as String] as? SecIdentity)
        var certificate: SecCertificate?
        #expect(SecIdentityCopyCertificate(secIdentity, &certificate) == errSecSuccess)
        #expect(certificate.map { SecCertificateCopyData($0) as Data } == Data(identity.leafDER))
        let chain = try #require(item[kSecImportItemCertChain as String] as? [SecCertificate])
        #expect(chain.map { SecCertificateCopyData($0) as Data } == [Data(identity.leafDER), Data(identity.caDER)])
        #expect(item[kSecImportItemLabel as String] as? String == "My Identity")
        #expect((item[kSecImportItemKeyID as String] as? Data)?.isEmpty == false)

        // The private key is openssl's: it signs what the certificate's public key verifies.
        var privateKey: SecKey?
        #expect(SecIdentityCopyPrivateKey(secIdentity, &privateKey) == errSecSuccess)
        let key = try #require(privateKey)
        let algorithm: SecKeyAlgorithm = keyType == .rsa2048 ? .rsaSignatureMessagePKCS1v15SHA256 : .ecdsaSignatureMessageX962SHA256
        let message = Data("signed by the imported key".utf8) as CFData
        let signature = try #require(SecKeyCreateSignature(key, algorithm, message, nil))
        let leaf = try #require(certificate)
        let certificateKey = try #require(SecCertificateCopyKey(leaf))
        #expect(SecKeyVerifySignature(certificateKey, algorithm, message, signature, nil))
        if keyType == .p256 {
            let opensslKey = try P256.Signing.PrivateKey(derRepresentation: identity.keyDER)
            #expect(SecKeyCopyExternalRepresentation(key, nil) as Data? == opensslKey.x963Representation)
        }

        // The trust is for that chain: trusted with the file's CA as anchor.
        let trust = try #require(item[kSecImportItemTrust as String] as? SecTrust)
        #expect(SecTrustSetAnchorCertificates(trust, [chain[1]] as CFArray) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(trust, nil))
    }

    @Test("A wrong passphrase is errSecAuthFailed, none errSecPassphraseRequired, a file that is no PKCS #12 errSecDecode; items stays nil")
    func failuresGiveAppleStatuses() throws {
        let identity = try PKCS12Tests.Identity(.p256)
        let p12 = Data(try identity.export(passphrase: "right"))
        var items: CFArray?
        #expect(SecPKCS12Import(p12 as CFData, [kSecImportExportPassphrase as String: "wrong"] as CFDictionary, &items) == errSecAuthFailed)
        #expect(SecPKCS12Import(p12 as CFData, [:] as CFDictionary, &items) == errSecPassphraseRequired)
        #expect(SecPKCS12Import(Data(identity.leafDER) as CFData, [kSecImportExportPassphrase as String: "right"] as CFDictionary, &items) == errSecDecode)
        #expect(SecPKCS12Import(p12.prefix(p12.count / 2) as CFData, [kSecImportExportPassphrase as String: "right"] as CFDictionary, &items) == errSecDecode)
        #expect(SecPKCS12Import(p12 as CFData, [kSecImportExportPassphrase as String: 42] as CFDictionary, &items) == errSecParam)
        #expect(items == nil)
        // A file made with an empty passphrase needs none.
        let open = Data(try identity.export(passphrase: ""))
        #expect(SecPKCS12Import(open as CFData, [:] as CFDictionary, &items) == errSecSuccess)
        #expect((items as? [Any])?.count == 1)
    }

    /// As on iOS the import only returns the identity; `SecItemAdd` with `kSecValueRef` stores
    /// it, and a `kSecClassIdentity` search finds it with the same certificate.
    @Test("An imported identity is stored with SecItemAdd and found as an identity")
    func importedIdentityGoesIntoTheKeychain() throws {
        let identity = try PKCS12Tests.Identity(.p256)
        let item = try Self.importOne(try identity.export(passphrase: "pw"), passphrase: "pw")
        let secIdentity = try #require(item[kSecImportItemIdentity as String] as? SecIdentity)
        try keychainFiles.run {
            #expect(SecItemAdd([kSecValueRef as String: secIdentity, kSecAttrLabel as String: "imported"] as CFDictionary, nil) == errSecSuccess)
            var found: CFTypeRef?
            #expect(SecItemCopyMatching([kSecClass as String: kSecClassIdentity, kSecReturnRef as String: true] as CFDictionary, &found) == errSecSuccess)
            let stored = try #require(found as? SecIdentity)
            var certificate: SecCertificate?
            #expect(SecIdentityCopyCertificate(stored, &certificate) == errSecSuccess)
            #expect(certificate.map { SecCertificateCopyData($0) as Data } == Data(identity.leafDER))
        }
    }
}
