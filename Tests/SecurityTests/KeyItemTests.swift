import Crypto
import Foundation
import Security
import Testing
import TestSupport

/// Keys as keychain items by reference: SecItemAdd with kSecValueRef, kSecReturnRef, queries
/// naming a key by reference, and the attributes Apple derives for a key (SecKey.c,
/// SecKeyCopyAttributeDictionaryWithLocalKey; SecItem.c's cook_query).
@Suite("Keys as keychain items")
struct KeyItemTests {
    private static let tag = Data("com.example.keys.signing".utf8)

    private static func secKey(_ key: P256.Signing.PrivateKey) throws -> SecKey {
        let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                         kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
        var error: Unmanaged<CFError>?
        return try #require(SecKeyCreateWithData(key.x963Representation as CFData, attributes as CFDictionary, &error))
    }

    /// All or nothing: when the private half cannot be stored (an access group the caller
    /// does not hold), the public half stored just before is taken out again and the call
    /// fails with the add's status.
    @Test("SecKeyCreateRandomKey stores both halves or neither")
    func permanentKeysAreAllOrNothing() throws {
        let keychain = PrivateKeychain()
        let tag = Data("com.example.half".utf8)
        let status = keychain.run { () -> OSStatus in
            var error: Unmanaged<CFError>?
            let key = SecKeyCreateRandomKey([
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag,
                kSecPrivateKeyAttrs as String: [kSecAttrAccessGroup as String: "com.example.not-held"],
            ] as CFDictionary, &error)
            guard key == nil, let failure = error?.takeRetainedValue() else { return errSecSuccess }
            return OSStatus(truncatingIfNeeded: CFErrorGetCode(failure))
        }
        #expect(status == errSecMissingEntitlement)
        let left = keychain.copyMatching([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                          kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true])
        #expect(left.status == errSecItemNotFound)
    }

    /// A key item of which no SecKey can be made (a symmetric key's bytes) is left out of a
    /// search for references alone, as Apple leaves it out, and a search that finds nothing
    /// else is errSecItemNotFound, never success with nil or an empty array.
    @Test("kSecReturnRef alone over a key item that is no SecKey: errSecItemNotFound, not an empty success")
    func unrepresentableKeysAreNotFoundByReference() throws {
        let keychain = PrivateKeychain()
        let tag = Data("com.example.symmetric".utf8)
        #expect(keychain.add([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                              kSecAttrKeyClass as String: kSecAttrKeyClassSymmetric,
                              kSecValueData as String: Data(repeating: 7, count: 32)]) == errSecSuccess)
        let one = keychain.copyMatching([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                         kSecReturnRef as String: true])
        #expect(one.status == errSecItemNotFound && one.result == nil)
        let all = keychain.copyMatching([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                         kSecReturnRef as String: true, kSecMatchLimit as String: kSecMatchLimitAll])
        #expect(all.status == errSecItemNotFound && all.result == nil)
        // Its attributes are still there to find.
        #expect(keychain.copyMatching([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                       kSecReturnAttributes as String: true]).status == errSecSuccess)
    }

    /// Heimdall's pattern: a public key's data added with its type and tag, no key class. A
    /// key item's absent class is 0, kSecAttrKeyClassPublic, as every absent number of a key's
    /// identity is, so kSecReturnRef makes the public key of it.
    @Test("A key item added with its data but no kSecAttrKeyClass is a public key: kSecReturnRef finds it")
    func keyDataWithoutAClassIsAPublicKey() throws {
        let keychain = PrivateKeychain()
        let tag = Data("com.example.heimdall.public".utf8)
        let signing = P256.Signing.PrivateKey()
        #expect(keychain.add([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                              kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                              kSecValueData as String: signing.publicKey.x963Representation]) == errSecSuccess)
        let found = keychain.copyMatching([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                           kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                           kSecReturnRef as String: true])
        #expect(found.status == errSecSuccess)
        let key = try #require(found.result.map { $0 as! SecKey })
        var error: Unmanaged<CFError>?
        #expect(SecKeyCopyExternalRepresentation(key, &error) as Data? == signing.publicKey.x963Representation)
        // It verifies what the private key signed, as CryptoKit's key would.
        let message = Data("signed by the private half".utf8)
        let signature = try signing.signature(for: message).derRepresentation
        #expect(SecKeyVerifySignature(key, .ecdsaSignatureMessageX962SHA256, message as CFData, signature as CFData, &error))
    }

    /// SecKeyCreateRandomKey with kSecAttrIsPermanent stores the halves that ask for it, as
    /// Apple's SecKeyGeneratePair does: in kSecPrivateKeyAttrs only the private key, at the top
    /// level both; each found again by its tag, the private half the key that was returned.
    @Test("SecKeyCreateRandomKey with kSecAttrIsPermanent stores the key under its tag")
    func permanentKeysAreStored() throws {
        let keychain = PrivateKeychain()
        let privateTag = Data("com.example.permanent.private".utf8)
        let created = try keychain.run { () throws -> SecKey in
            var error: Unmanaged<CFError>?
            let parameters: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: privateTag,
                                                kSecAttrLabel as String: "permanent"],
            ]
            return try #require(SecKeyCreateRandomKey(parameters as CFDictionary, &error))
        }
        let found = keychain.copyMatching([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: privateTag,
                                           kSecReturnRef as String: true, kSecReturnAttributes as String: true])
        let item = try #require(found.result as? [String: Any])
        let stored = try #require(item[kSecValueRef as String] as? SecKey)
        #expect(SecKeyCopyExternalRepresentation(stored, nil) as Data? == SecKeyCopyExternalRepresentation(created, nil) as Data?)
        #expect(item[kSecAttrLabel as String] as? String == "permanent")
        #expect(item[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassPrivate as String
                || (item[kSecAttrKeyClass as String] as? NSNumber)?.stringValue == kSecAttrKeyClassPrivate as String)
        // Only the private half asked to be kept.
        let all = keychain.copyMatching([kSecClass as String: kSecClassKey, kSecMatchLimit as String: kSecMatchLimitAll,
                                         kSecReturnAttributes as String: true])
        #expect((all.result as? [[String: Any]])?.count == 1)

        // At the top level, both halves are kept.
        let bothTag = Data("com.example.permanent.both".utf8)
        _ = try keychain.run { () throws -> SecKey in
            try #require(SecKeyCreateRandomKey([kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048,
                                                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: bothTag] as CFDictionary, nil))
        }
        let both = keychain.copyMatching([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: bothTag,
                                          kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnRef as String: true])
        #expect((both.result as? [SecKey])?.count == 2)
    }

    @Test("Apple's 'Storing CryptoKit Keys in the Keychain': add by kSecValueRef, read back by kSecReturnRef, sign")
    func cryptoKitFlow() throws {
        let keychain = PrivateKeychain()
        let original = P256.Signing.PrivateKey()
        let key = try Self.secKey(original)
        #expect(keychain.add([
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: Self.tag,
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
            kSecUseDataProtectionKeychain as String: true,
            kSecValueRef as String: key,
        ]) == errSecSuccess)

        let found = keychain.copyMatching([
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: Self.tag,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecReturnRef as String: true,
        ])
        #expect(found.status == errSecSuccess)
        let stored = try #require(found.result as? SecKey)
        var error: Unmanaged<CFError>?
        let representation = try #require(SecKeyCopyExternalRepresentation(stored, &error) as Data?)
        #expect(representation == original.x963Representation)
        // The key rebuilt by swift-crypto is the same key: its signature verifies under the
        // original public key.
        let rebuilt = try P256.Signing.PrivateKey(x963Representation: representation)
        let message = Data("message to sign".utf8)
        #expect(original.publicKey.isValidSignature(try rebuilt.signature(for: message), for: message))
    }

    @Test("SecKey.c: a private key's item has kcls 1, klbl = SHA-1 of its public key (Data), type 73, sizes and usage flags")
    func derivedPrivateKeyAttributes() throws {
        let keychain = PrivateKeychain()
        let original = P256.Signing.PrivateKey()
        // No kSecClass: Apple infers it from the reference.
        #expect(keychain.add([kSecValueRef as String: try Self.secKey(original),
                              kSecAttrApplicationTag as String: Self.tag]) == errSecSuccess)
        let found = keychain.attributes([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Self.tag])
        let attributes = try #require(found.attributes)
        let label = Data(Insecure.SHA1.hash(data: original.publicKey.x963Representation))
        #expect(attributes[kSecAttrApplicationLabel as String] as? Data == label)
        #expect((attributes[kSecAttrKeyClass as String] as? NSNumber)?.intValue == 1)
        #expect((attributes[kSecAttrKeyType as String] as? NSNumber)?.intValue == 73)
        #expect((attributes[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == 256)
        #expect((attributes[kSecAttrEffectiveKeySize as String] as? NSNumber)?.intValue == 256)
        let flags = [kSecAttrCanEncrypt, kSecAttrCanDecrypt, kSecAttrCanDerive, kSecAttrCanSign, kSecAttrCanVerify,
                     kSecAttrCanWrap, kSecAttrCanUnwrap].map { (attributes[$0 as String] as? NSNumber)?.boolValue }
        #expect(flags == [false, true, true, true, false, false, true])
    }

    @Test("SecKey.c: a public key's item has kcls 0 and the public usage flags; its data is the X9.63 point")
    func derivedPublicKeyAttributes() throws {
        let keychain = PrivateKeychain()
        let original = P256.Signing.PrivateKey()
        let publicKey = try #require(SecKeyCopyPublicKey(try Self.secKey(original)))
        var result: CFTypeRef?
        #expect(keychain.add([kSecValueRef as String: publicKey, kSecReturnAttributes as String: true,
                              kSecReturnData as String: true], result: &result) == errSecSuccess)
        let attributes = try #require(result as? [String: Any])
        #expect(attributes[kSecValueData as String] as? Data == original.publicKey.x963Representation)
        #expect((attributes[kSecAttrKeyClass as String] as? NSNumber)?.intValue == 0)
        let flags = [kSecAttrCanEncrypt, kSecAttrCanDecrypt, kSecAttrCanDerive, kSecAttrCanSign, kSecAttrCanVerify,
                     kSecAttrCanWrap, kSecAttrCanUnwrap].map { (attributes[$0 as String] as? NSNumber)?.boolValue }
        #expect(flags == [true, false, true, false, true, true, false])
    }

    @Test("The key primary key (kcls, klbl, atag, type, bsiz, ...) makes a second add of the same key a duplicate")
    func duplicateKey() throws {
        let keychain = PrivateKeychain()
        let key = try Self.secKey(P256.Signing.PrivateKey())
        let item: [String: Any] = [kSecValueRef as String: key, kSecAttrApplicationTag as String: Self.tag]
        #expect(keychain.add(item) == errSecSuccess)
        #expect(keychain.add(item) == errSecDuplicateItem)
        // A label is not part of the key; a tag is.
        #expect(keychain.add(item.with([kSecAttrLabel as String: "other label"])) == errSecDuplicateItem)
        #expect(keychain.add(item.with([kSecAttrApplicationTag as String: Data("other".utf8)])) == errSecSuccess)
        // Another key under the same tag is another item.
        #expect(keychain.add([kSecValueRef as String: try Self.secKey(P256.Signing.PrivateKey()),
                              kSecAttrApplicationTag as String: Self.tag]) == errSecSuccess)
    }

    @Test("cook_query: kSecValueRef in CopyMatching, Update and Delete names the item that holds the key")
    func queriesByReference() throws {
        let keychain = PrivateKeychain()
        let key = try Self.secKey(P256.Signing.PrivateKey())
        let other = try Self.secKey(P256.Signing.PrivateKey())
        #expect(keychain.add([kSecValueRef as String: key, kSecAttrLabel as String: "mine"]) == errSecSuccess)
        #expect(keychain.add([kSecValueRef as String: other, kSecAttrLabel as String: "other"]) == errSecSuccess)
        let byReference: [String: Any] = [kSecValueRef as String: key]
        #expect(keychain.attributes(byReference).attributes?[kSecAttrLabel as String] as? String == "mine")
        #expect(keychain.update(byReference, [kSecAttrLabel as String: "renamed"]) == errSecSuccess)
        #expect(keychain.attributes(byReference).attributes?[kSecAttrLabel as String] as? String == "renamed")
        #expect(keychain.delete(byReference) == errSecSuccess)
        #expect(keychain.copyMatching(byReference).status == errSecItemNotFound)
        #expect(keychain.delete(byReference) == errSecItemNotFound)
        // The other key is untouched.
        #expect(keychain.attributes([kSecValueRef as String: other]).attributes?[kSecAttrLabel as String] as? String
            == "other")
    }

    @Test("As SecItem.c makeResult does: kSecReturnRef with attributes gives a dictionary with v_Ref and class; without, only the objects")
    func referenceInDictionary() throws {
        let keychain = PrivateKeychain()
        let original = P256.Signing.PrivateKey()
        #expect(keychain.add([kSecValueRef as String: try Self.secKey(original)]) == errSecSuccess)
        let found = keychain.copyMatching([kSecClass as String: kSecClassKey, kSecReturnRef as String: true,
                                           kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll])
        let items = try #require(found.result as? [[String: Any]])
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item[kSecClass as String] as? String == kSecClassKey as String)
        #expect(item[kSecValueData as String] == nil)
        let key = try #require(item[kSecValueRef as String] as? SecKey)
        var error: Unmanaged<CFError>?
        #expect(SecKeyCopyExternalRepresentation(key, &error) as Data? == original.x963Representation)
        // Without attributes, only the objects asked for: {v_Ref, v_PersistentRef}.
        let bare = keychain.copyMatching([kSecClass as String: kSecClassKey, kSecReturnRef as String: true,
                                          kSecReturnPersistentRef as String: true])
        let pair = try #require(bare.result as? [String: Any])
        #expect(Set(pair.keys) == [kSecValueRef as String, kSecValuePersistentRef as String])
        // kSecReturnData on a key item gives its external representation.
        #expect(keychain.secret([kSecClass as String: kSecClassKey]) == original.x963Representation)
    }

    @Test("RSA (openssl's key): a key added by reference comes back as the same key, with type 42 and its size")
    func rsaKey() throws {
        let keychain = PrivateKeychain()
        let rsa = try OpensslMaterial(rsaBits: 2048)
        let privateKey = try rsa.rsaPKCS1(publicOnly: false)
        let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
                                         kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
        var error: Unmanaged<CFError>?
        let key = try #require(SecKeyCreateWithData(privateKey as CFData, attributes as CFDictionary, &error))
        var result: CFTypeRef?
        #expect(keychain.add([kSecValueRef as String: key, kSecReturnRef as String: true], result: &result)
            == errSecSuccess)
        let returned = try #require(result as? SecKey)
        #expect(SecKeyCopyExternalRepresentation(returned, &error) as Data? == privateKey)
        let found = try #require(keychain.attributes([kSecValueRef as String: key]).attributes)
        #expect((found[kSecAttrKeyType as String] as? NSNumber)?.intValue == 42)
        #expect((found[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == 2048)
        // RSA's application label is the SHA-1 of the PKCS #1 public key.
        #expect(found[kSecAttrApplicationLabel as String] as? Data
            == Data(Insecure.SHA1.hash(data: try rsa.rsaPKCS1(publicOnly: true))))
    }

    @Test("SecKeyCreateRandomKey's kSecAttrIsPermanent path: kSecValueRef with the key's own description attributes")
    func permanentKeyAttributes() throws {
        let keychain = PrivateKeychain()
        let key = try Self.secKey(P256.Signing.PrivateKey())
        // What the caller gave SecKeyCreateRandomKey, type as its string constant, stored with the key.
        let item: [String: Any] = [
            kSecValueRef as String: key, kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256, kSecAttrIsPermanent as String: true,
            kSecAttrApplicationTag as String: Self.tag, kSecAttrLabel as String: "signing key",
        ]
        #expect(keychain.add(item) == errSecSuccess)
        // The given type and size equal the derived ones: the same item.
        #expect(keychain.add([kSecValueRef as String: key, kSecAttrApplicationTag as String: Self.tag])
            == errSecDuplicateItem)
        #expect(keychain.copyMatching([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Self.tag,
                                       kSecReturnRef as String: true]).result is SecKey)
    }

    @Test("A key added by reference is the same key in another process (kSecReturnRef there)")
    func keyInAnotherProcess() throws {
        let keychain = PrivateKeychain()
        let original = P256.Signing.PrivateKey()
        #expect(keychain.add([kSecValueRef as String: try Self.secKey(original),
                              kSecAttrApplicationTag as String: Self.tag]) == errSecSuccess)
        let output = try HelperProcess.run(["find-key", String(decoding: Self.tag, as: UTF8.self)],
                                           dataHome: keychain.dataHome, accessGroups: "com.example.app")
        #expect(output == "0 private \(original.publicKey.x963Representation.lowercaseHex)")
    }

    @Test("Compatibility: a klbl stored as text by a caller keeps its identity and comes back as Data")
    func textApplicationLabel() throws {
        let keychain = PrivateKeychain()
        let item: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrApplicationLabel as String: "label-1",
                                   kSecValueData as String: Data([1, 2, 3])]
        #expect(keychain.add(item) == errSecSuccess)
        #expect(keychain.add(item.with([kSecAttrApplicationLabel as String: Data("label-1".utf8)])) == errSecDuplicateItem)
        let found = keychain.attributes([kSecClass as String: kSecClassKey,
                                         kSecAttrApplicationLabel as String: Data("label-1".utf8)])
        #expect(found.attributes?[kSecAttrApplicationLabel as String] as? Data == Data("label-1".utf8))
    }

    @Test("Bad input: kSecValueRef with another object, or with a class it is not of, or with kSecValueData, is errSecParam")
    func badReferences() throws {
        let keychain = PrivateKeychain()
        let key = try Self.secKey(P256.Signing.PrivateKey())
        #expect(keychain.add([kSecValueRef as String: Data([1, 2, 3])]) == errSecParam)
        #expect(keychain.add([kSecClass as String: kSecClassCertificate, kSecValueRef as String: key]) == errSecParam)
        #expect(keychain.add([kSecValueRef as String: key, kSecValueData as String: Data([1])]) == errSecParam)
        #expect(keychain.copyMatching([kSecClass as String: kSecClassGenericPassword, kSecValueRef as String: key]).status
            == errSecParam)
        #expect(keychain.count([kSecClass as String: kSecClassKey]) == 0)
    }
}
