import Foundation
import Security
import Testing
import TestSupport

/// Core Foundation objects compare as CFEqual compares them on Apple platforms, and hash as
/// CFHash does: two references to one key are equal, so code keeps them in sets and in
/// `[String: AnyHashable]` (Valet keeps its SecAccessControl there).
@Suite struct CFObjectEqualityTests {
    @Test("Access controls with the same protection and flags are equal, hash alike, and live in [String: AnyHashable]")
    func accessControls() throws {
        func make(_ protection: CFString, _ flags: SecAccessControlCreateFlags) throws -> SecAccessControl {
            try #require(SecAccessControlCreateWithFlags(nil, protection, flags, nil))
        }
        let first = try make(kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence)
        let second = try make(kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence)
        #expect(first !== second)
        #expect(first == second && first.hashValue == second.hashValue)
        #expect(first != (try make(kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .devicePasscode)))
        #expect(first != (try make(kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, .userPresence)))
        let options: [String: AnyHashable] = ["accessControl": first]
        #expect(options == ["accessControl": second])
        #expect(Set([first, second]).count == 1)
    }

    @Test("A key and the same key read back from the keychain are equal; its two halves and other keys are not")
    func keys() throws {
        let keychain = PrivateKeychain()
        let tag = Data("com.example.equality".utf8)
        var error: Unmanaged<CFError>?
        let key = try #require(keychain.run {
            SecKeyCreateRandomKey([kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                                   kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true,
                                                                   kSecAttrApplicationTag as String: tag]] as CFDictionary, &error)
        })
        var found: CFTypeRef?
        #expect(keychain.run {
            SecItemCopyMatching([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                 kSecReturnRef as String: true] as CFDictionary, &found)
        } == errSecSuccess)
        let stored = found as! SecKey
        #expect(stored !== key)
        #expect(stored == key && stored.hashValue == key.hashValue)
        let publicKey = try #require(SecKeyCopyPublicKey(key)), again = try #require(SecKeyCopyPublicKey(stored))
        #expect(publicKey == again)
        #expect(publicKey != key)
        let other = try #require(SecKeyCreateRandomKey([kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                                        kSecAttrKeySizeInBits as String: 256] as CFDictionary, &error))
        #expect(other != key)
        #expect(Set([key, stored, other]).count == 2)
    }

    @Test("Certificates made from the same DER are equal and hash alike")
    func certificates() throws {
        let material = try OpensslMaterial()
        let first = try #require(SecCertificateCreateWithData(nil, material.certificate as CFData))
        let second = try #require(SecCertificateCreateWithData(nil, material.certificate as CFData))
        #expect(first == second && first.hashValue == second.hashValue)
        let other = try #require(SecCertificateCreateWithData(nil, try OpensslMaterial(serial: "0x99").certificate as CFData))
        #expect(first != other)
    }
}
