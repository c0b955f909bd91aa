import Crypto
import Foundation
import Security
import Testing
import TestSupport

/// Identities: a certificate and the private key whose application label equals the
/// certificate's public-key hash (Apple's SecItemServer joins cert.pkhh = keys.klbl);
/// adding and deleting one by reference as Apple's SecItem.c explode_identity does.
@Suite("Identities")
struct IdentityTests {
    /// openssl's certificate, and its private key as swift-crypto reads openssl's PEM,
    /// imported with SecKeyCreateWithData.
    private static func halves(_ material: OpensslMaterial) throws -> (SecCertificate, SecKey) {
        let certificate = try #require(SecCertificateCreateWithData(nil, material.certificate as CFData))
        let key = try P256.Signing.PrivateKey(pemRepresentation: material.privateKeyPEM)
        let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                         kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
        var error: Unmanaged<CFError>?
        return (certificate, try #require(SecKeyCreateWithData(key.x963Representation as CFData,
                                                                attributes as CFDictionary, &error)))
    }

    private static var identities: [String: Any] { [kSecClass as String: kSecClassIdentity] }

    @Test("SecItemServer: kSecClassIdentity joins a stored certificate with its stored private key")
    func join() throws {
        let keychain = PrivateKeychain()
        let material = try OpensslMaterial()
        let (certificate, key) = try Self.halves(material)
        #expect(keychain.add([kSecValueRef as String: certificate]) == errSecSuccess)
        // A certificate alone is no identity.
        #expect(keychain.copyMatching(Self.identities).status == errSecItemNotFound)
        #expect(keychain.add([kSecValueRef as String: key, kSecAttrApplicationTag as String: "tag"]) == errSecSuccess)

        let found = keychain.copyMatching(Self.identities.with([kSecReturnRef as String: true]))
        #expect(found.status == errSecSuccess)
        let identity = try #require(found.result as? SecIdentity)
        var storedCertificate: SecCertificate?
        #expect(SecIdentityCopyCertificate(identity, &storedCertificate) == errSecSuccess)
        #expect(storedCertificate.map { SecCertificateCopyData($0) as Data } == material.certificate)
        var storedKey: SecKey?
        #expect(SecIdentityCopyPrivateKey(identity, &storedKey) == errSecSuccess)
        var error: Unmanaged<CFError>?
        #expect(storedKey.flatMap { SecKeyCopyExternalRepresentation($0, &error) as Data? }
            == SecKeyCopyExternalRepresentation(key, &error) as Data?)
        #expect(CFGetTypeID(identity) == SecIdentityGetTypeID())
        // s3dl_query_row: the key's attributes with the certificate's over them.
        let attributes = try #require(keychain.attributes(Self.identities).attributes)
        #expect(attributes[kSecAttrApplicationTag as String] as? String == "tag")
        let label = try #require(attributes[kSecAttrApplicationLabel as String] as? Data)
        #expect(attributes[kSecAttrPublicKeyHash as String] as? Data == label)
        #expect(attributes[kSecAttrLabel as String] as? String == "Item Test")
        // Key attributes select the key half.
        #expect(keychain.copyMatching(Self.identities.with([kSecAttrApplicationTag as String: "tag"])).status
            == errSecSuccess)
        #expect(keychain.copyMatching(Self.identities.with([kSecAttrApplicationTag as String: "other"])).status
            == errSecItemNotFound)
        // So does the key's application label: its own finds the identity, one of a key that
        // is not in the keychain finds none (not another identity), and so does a public class.
        #expect(keychain.copyMatching(Self.identities.with([kSecAttrApplicationLabel as String: label])).status
            == errSecSuccess)
        let absentLabel = Data(repeating: 0xAB, count: 20)
        #expect(keychain.copyMatching(Self.identities.with([kSecAttrApplicationLabel as String: absentLabel])).status
            == errSecItemNotFound)
        #expect(keychain.copyMatching(Self.identities.with([kSecAttrKeyClass as String: kSecAttrKeyClassPublic])).status
            == errSecItemNotFound)
        #expect(keychain.copyMatching(Self.identities.with([kSecAttrKeyClass as String: kSecAttrKeyClassPrivate])).status
            == errSecSuccess)
        // A public key with the same label does not make an identity: only a private key does.
        #expect(keychain.delete([kSecValueRef as String: key]) == errSecSuccess)
        #expect(keychain.add([kSecValueRef as String: try #require(SecKeyCopyPublicKey(key))]) == errSecSuccess)
        #expect(keychain.copyMatching(Self.identities).status == errSecItemNotFound)
    }

    @Test("explode_identity: adding an identity by reference adds both halves; deleting it deletes both")
    func addAndDelete() throws {
        let keychain = PrivateKeychain()
        let (certificate, key) = try Self.halves(try OpensslMaterial())
        let unrelated = try Self.halves(try OpensslMaterial(serial: "0x77"))
        #expect(keychain.add([kSecValueRef as String: unrelated.1]) == errSecSuccess)
        // The identity object of a search is what an add takes.
        #expect(keychain.add([kSecValueRef as String: certificate]) == errSecSuccess)
        #expect(keychain.add([kSecValueRef as String: key]) == errSecSuccess)
        let identity = try #require(keychain.copyMatching(Self.identities.with([kSecReturnRef as String: true])).result
            as? SecIdentity)
        #expect(keychain.delete(Self.identities) == errSecSuccess)
        #expect(keychain.count([kSecClass as String: kSecClassCertificate]) == 0)
        #expect(keychain.count([kSecClass as String: kSecClassKey]) == 1) // the unrelated key stays

        var result: CFTypeRef?
        #expect(keychain.add([kSecValueRef as String: identity, kSecReturnPersistentRef as String: true],
                             result: &result) == errSecSuccess)
        #expect(keychain.count([kSecClass as String: kSecClassCertificate]) == 1)
        #expect(keychain.count([kSecClass as String: kSecClassKey]) == 2)
        #expect(keychain.add([kSecValueRef as String: identity]) == errSecDuplicateItem)
        // Its persistent reference names the identity.
        let reference = try #require(result as? Data)
        #expect(reference.prefix(4) == Data("idnt".utf8))
        #expect(keychain.copyMatching([kSecValuePersistentRef as String: reference, kSecReturnRef as String: true]).result
            is SecIdentity)
        #expect(keychain.delete([kSecValueRef as String: identity]) == errSecSuccess)
        #expect(keychain.count([kSecClass as String: kSecClassCertificate]) == 0)
        #expect(keychain.count([kSecClass as String: kSecClassKey]) == 1)
        #expect(keychain.delete(Self.identities) == errSecItemNotFound)
    }
}
