import Foundation
import Security
import Testing
import TestSupport

/// Certificates and keys as stored items, and the parts of the API this release does not
/// implement: object references (kSecReturnRef / kSecValueRef on certificates and keys),
/// identities and access-control objects.
@Suite("Certificates, keys and identities")
struct CertificateKeyIdentityTests {
    private let der = Data([0x30, 0x82, 0x01, 0x0A, 0x02, 0x82, 0x01, 0x01, 0x00])

    @Test("§3: a certificate is stored with its data and attributes and found again")
    func certificateRoundTrip() throws {
        let keychain = PrivateKeychain()
        #expect(keychain.add(specCertificate(extra: [
            kSecValueData as String: der,
            kSecAttrLabel as String: "My cert",
            kSecAttrSubject as String: Data("subject".utf8),
        ])) == errSecSuccess)
        let found = keychain.copyMatching(specCertificate().with([
            kSecReturnData as String: true,
            kSecReturnAttributes as String: true,
        ]))
        #expect(found.status == errSecSuccess)
        let dictionary = try #require(found.result as? [String: Any])
        #expect(dictionary[kSecValueData as String] as? Data == der)
        #expect(dictionary[kSecAttrLabel as String] as? String == "My cert")
        #expect(dictionary[kSecAttrSubject as String] as? Data == Data("subject".utf8))
        #expect(dictionary[kSecAttrIssuer as String] as? String == "CN=Example CA")
        #expect((dictionary[kSecAttrCertificateType as String] as? NSNumber)?.intValue == 1)
        #expect(keychain.update(specCertificate(), [kSecAttrLabel as String: "renamed"]) == errSecSuccess)
        #expect(keychain.delete(specCertificate()) == errSecSuccess)
        #expect(keychain.copyMatching(specCertificate()).status == errSecItemNotFound)
    }

    @Test("§3: a key is stored with its data and attributes and found again")
    func keyRoundTrip() throws {
        let keychain = PrivateKeychain()
        let keyBytes = Data(repeating: 0x42, count: 32)
        #expect(keychain.add(specKey(extra: [
            kSecValueData as String: keyBytes,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrCanEncrypt as String: true,
        ])) == errSecSuccess)
        let found = keychain.copyMatching(specKey().with([
            kSecReturnData as String: true,
            kSecReturnAttributes as String: true,
        ]))
        let dictionary = try #require(found.result as? [String: Any])
        #expect(dictionary[kSecValueData as String] as? Data == keyBytes)
        #expect(dictionary[kSecAttrApplicationTag as String] as? String == "com.example.key")
        #expect(dictionary[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassSymmetric as String)
        #expect((dictionary[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == 256)
        // A search by tag alone finds it.
        #expect(keychain.secret([
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: "com.example.key",
        ]) == keyBytes)
    }

    @Test("§3 / choice: kSecReturnRef on certificates and keys is errSecUnimplemented",
          arguments: [true, false])
    func returnRefOnCertificateAndKey(isCertificate: Bool) {
        let keychain = PrivateKeychain()
        let item = isCertificate ? specCertificate() : specKey()
        #expect(keychain.add(item) == errSecSuccess)
        let found = keychain.copyMatching(item.with([kSecReturnRef as String: true]))
        #expect(found.status == errSecUnimplemented)
        #expect(found.result == nil)
        let other = isCertificate ? specCertificate(serial: "99") : specKey(tag: "other")
        #expect(keychain.add(other.with([kSecReturnRef as String: true])) == errSecUnimplemented)
        #expect(keychain.count(other) == 0)
    }

    @Test("Choice: kSecValueRef is errSecUnimplemented", arguments: [0, 1, 2])
    func valueRefIsUnimplemented(index: Int) {
        let keychain = PrivateKeychain()
        let item = [specCertificate(), specKey(), genericPassword()][index]
        #expect(keychain.add(item) == errSecSuccess)
        let reference: Any = NSData(data: Data([1, 2, 3]))
        #expect(keychain.add(item.with([kSecValueRef as String: reference])) == errSecUnimplemented)
        #expect(keychain.copyMatching(item.with([kSecValueRef as String: reference])).status == errSecUnimplemented)
        #expect(keychain.count(item) == 1)
    }

    @Test("Choice: kSecClassIdentity: add is errSecUnimplemented; search and delete find nothing")
    func identity() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(specCertificate()) == errSecSuccess)
        #expect(keychain.add(specKey()) == errSecSuccess)
        let identity: [String: Any] = [kSecClass as String: kSecClassIdentity]
        #expect(keychain.add(identity.with([kSecAttrLabel as String: "me"])) == errSecUnimplemented)
        let found = keychain.copyMatching(identity.with([kSecReturnAttributes as String: true]))
        #expect(found.status == errSecItemNotFound)
        #expect(found.result == nil)
        #expect(keychain.copyMatching(identity.with([kSecMatchLimit as String: kSecMatchLimitAll])).status
            == errSecItemNotFound)
        #expect(keychain.delete(identity) == errSecItemNotFound)
        #expect(keychain.count(specCertificate()) == 1)
        #expect(keychain.count(specKey()) == 1)
    }

    @Test("Choice: kSecAttrAccessControl is errSecUnimplemented")
    func accessControlIsUnimplemented() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(genericPassword().with([kSecAttrAccessControl as String: Data([1])])) == errSecUnimplemented)
        #expect(keychain.count(genericPassword()) == 0)
    }
}
