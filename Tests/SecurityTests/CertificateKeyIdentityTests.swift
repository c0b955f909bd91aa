import Foundation
import Security
import Testing
import TestSupport

/// Certificates and keys stored from attributes and data (not objects), what references do
/// with such items, and access-control objects, which this release does not implement.
@Suite("Certificates, keys and identities")
struct CertificateKeyIdentityTests {
    private let der = Data([0x30, 0x82, 0x01, 0x0A, 0x02, 0x82, 0x01, 0x01, 0x00])

    @Test("A certificate is stored with its data and attributes and found again")
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
        // Apple keeps the issuer as data: a string given for it comes back as its bytes.
        #expect(dictionary[kSecAttrIssuer as String] as? Data == Data("CN=Example CA".utf8))
        #expect((dictionary[kSecAttrCertificateType as String] as? NSNumber)?.intValue == 1)
        #expect(keychain.update(specCertificate(), [kSecAttrLabel as String: "renamed"]) == errSecSuccess)
        #expect(keychain.delete(specCertificate()) == errSecSuccess)
        #expect(keychain.copyMatching(specCertificate()).status == errSecItemNotFound)
    }

    @Test("A key is stored with its data and attributes and found again")
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

    /// Apple's SecItem.c makeResult gives no object for such an item; a search for references
    /// alone that finds only such items is errSecItemNotFound here rather than a success with
    /// nil, which code that casts the result after a success would crash on (a search never
    /// succeeds with nothing).
    @Test("kSecReturnRef on an item whose data is no certificate or key gives no object; alone, errSecItemNotFound",
          arguments: [true, false])
    func returnRefWithoutObject(isCertificate: Bool) throws {
        let keychain = PrivateKeychain()
        let item = isCertificate ? specCertificate() : specKey()
        #expect(keychain.add(item.with([kSecValueData as String: der])) == errSecSuccess)
        let alone = keychain.copyMatching(item.with([kSecReturnRef as String: true]))
        #expect(alone.status == errSecItemNotFound)
        #expect(alone.result == nil)
        let all = keychain.copyMatching(item.with([kSecReturnRef as String: true,
                                                   kSecMatchLimit as String: kSecMatchLimitAll]))
        #expect(all.status == errSecItemNotFound && all.result == nil)
        let withAttributes = keychain.copyMatching(item.with([kSecReturnRef as String: true,
                                                              kSecReturnAttributes as String: true]))
        let dictionary = try #require(withAttributes.result as? [String: Any])
        #expect(dictionary[kSecValueRef as String] == nil)
        #expect(dictionary[kSecClass as String] as? String == item[kSecClass as String] as? String)
    }

    @Test("Bad input: kSecValueRef holding anything but a key, certificate or identity is errSecParam",
          arguments: [0, 1, 2])
    func valueRefOfOtherObject(index: Int) {
        let keychain = PrivateKeychain()
        let item = [specCertificate(), specKey(), genericPassword()][index]
        #expect(keychain.add(item) == errSecSuccess)
        let reference: Any = NSData(data: Data([1, 2, 3]))
        #expect(keychain.add(item.with([kSecValueRef as String: reference])) == errSecParam)
        #expect(keychain.copyMatching(item.with([kSecValueRef as String: reference])).status == errSecParam)
        #expect(keychain.count(item) == 1)
    }

    @Test("kSecClassIdentity: an add without a SecIdentity is errSecParam; no certificate with its private key, no identity")
    func identity() {
        let keychain = PrivateKeychain()
        #expect(keychain.add(specCertificate()) == errSecSuccess)
        #expect(keychain.add(specKey()) == errSecSuccess)
        let identity: [String: Any] = [kSecClass as String: kSecClassIdentity]
        #expect(keychain.add(identity.with([kSecAttrLabel as String: "me"])) == errSecParam)
        let found = keychain.copyMatching(identity.with([kSecReturnAttributes as String: true]))
        #expect(found.status == errSecItemNotFound)
        #expect(found.result == nil)
        #expect(keychain.copyMatching(identity.with([kSecMatchLimit as String: kSecMatchLimitAll])).status
            == errSecItemNotFound)
        #expect(keychain.delete(identity) == errSecItemNotFound)
        #expect(keychain.count(specCertificate()) == 1)
        #expect(keychain.count(specKey()) == 1)
    }
}
