import Crypto
import Foundation
import Security
import Testing
import TestSupport

/// Finding keys by kSecAttrApplicationTag and kSecAttrApplicationLabel, which format 4
/// answers from hashed columns rather than by opening every key: each search returns
/// exactly the keys whose tag or label equals the query's, byte for byte, and the other
/// attributes named narrow it as before. Keys are checked against the swift-crypto keys
/// they were made from.
@Suite("Keys found by application tag and label")
struct KeyLookupTests {
    private static func secKey(_ key: P256.Signing.PrivateKey) throws -> SecKey {
        let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                         kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
        var error: Unmanaged<CFError>?
        return try #require(SecKeyCreateWithData(key.x963Representation as CFData, attributes as CFDictionary, &error))
    }

    /// Adds `key` by reference under `tag`, with more attributes.
    private func add(_ keychain: PrivateKeychain, _ key: SecKey, tag: Data,
                     _ more: [String: Any] = [:]) -> OSStatus {
        keychain.add([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                      kSecValueRef as String: key].merging(more) { $1 })
    }

    /// The external representations of every key a query returns by reference, in order;
    /// nil when the search fails.
    private func keys(_ keychain: PrivateKeychain, _ query: [String: Any]) -> [Data]? {
        let found = keychain.copyMatching(query.merging([kSecClass as String: kSecClassKey, kSecReturnRef as String: true,
                                                         kSecMatchLimit as String: kSecMatchLimitAll]) { $1 })
        guard found.status == errSecSuccess, let refs = found.result as? [SecKey] else { return nil }
        return refs.compactMap { SecKeyCopyExternalRepresentation($0, nil) as Data? }
    }

    private func byTag(_ tag: Data) -> [String: Any] { [kSecAttrApplicationTag as String: tag] }

    @Test("among 120 keys, a find by tag returns exactly its key, also when tags are prefixes of one another")
    func findByTagAmongMany() throws {
        let keychain = PrivateKeychain()
        let made = (0..<120).map { _ in P256.Signing.PrivateKey() }
        // "….1" is a prefix of "….10" and "….100": equality, not prefix, decides.
        for (index, key) in made.enumerated() {
            #expect(add(keychain, try Self.secKey(key), tag: Data("com.example.key.\(index)".utf8)) == errSecSuccess)
        }
        for index in [0, 1, 10, 100, 119] {
            #expect(keys(keychain, byTag(Data("com.example.key.\(index)".utf8))) == [made[index].x963Representation])
        }
        #expect(keys(keychain, byTag(Data("com.example.key.".utf8))) == nil)
        #expect(keychain.copyMatching([kSecClass as String: kSecClassKey,
                                       kSecAttrApplicationTag as String: Data("com.example.key".utf8)]).status
                == errSecItemNotFound)
        // A tag given as a string names the same bytes.
        #expect(keys(keychain, [kSecAttrApplicationTag as String: "com.example.key.10"]) == [made[10].x963Representation])
    }

    @Test("the same tag in two access groups and for both halves of a pair: group, key class and caller narrow it")
    func equalTagsInOtherGroupsAndClasses() throws {
        let keychain = PrivateKeychain(accessGroups: ["com.example.app", "com.example.shared"])
        let tag = Data("com.example.same".utf8)
        let mine = P256.Signing.PrivateKey()
        let shared = P256.Signing.PrivateKey()
        let mineKey = try Self.secKey(mine)
        let minePublic = try #require(SecKeyCopyPublicKey(mineKey))
        #expect(add(keychain, mineKey, tag: tag, [kSecAttrAccessGroup as String: "com.example.app"]) == errSecSuccess)
        #expect(add(keychain, minePublic, tag: tag, [kSecAttrAccessGroup as String: "com.example.app"]) == errSecSuccess)
        #expect(add(keychain, try Self.secKey(shared), tag: tag,
                    [kSecAttrAccessGroup as String: "com.example.shared"]) == errSecSuccess)

        #expect(keys(keychain, byTag(tag)) == [mine.x963Representation, mine.publicKey.x963Representation,
                                               shared.x963Representation])
        #expect(keys(keychain, byTag(tag).merging([kSecAttrAccessGroup as String: "com.example.shared"]) { $1 })
                == [shared.x963Representation])
        #expect(keys(keychain, byTag(tag).merging([kSecAttrKeyClass as String: kSecAttrKeyClassPublic]) { $1 })
                == [mine.publicKey.x963Representation])
        #expect(keys(keychain, byTag(tag).merging([kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
                                                   kSecAttrAccessGroup as String: "com.example.app"]) { $1 })
                == [mine.x963Representation])
        // A caller without the shared group never sees its key.
        #expect(keys(keychain.asCaller(["com.example.app"]), byTag(tag))
                == [mine.x963Representation, mine.publicKey.x963Representation])
    }

    @Test("by kSecAttrApplicationLabel (SHA-1 of the public key, computed with swift-crypto): the pair of that key only")
    func findByApplicationLabel() throws {
        let keychain = PrivateKeychain()
        let made = (0..<20).map { _ in P256.Signing.PrivateKey() }
        for (index, key) in made.enumerated() {
            let secKey = try Self.secKey(key)
            #expect(add(keychain, secKey, tag: Data("k\(index)".utf8)) == errSecSuccess)
            #expect(add(keychain, try #require(SecKeyCopyPublicKey(secKey)), tag: Data("k\(index)".utf8)) == errSecSuccess)
        }
        let chosen = made[7]
        let label = Data(Insecure.SHA1.hash(data: chosen.publicKey.x963Representation))
        #expect(keys(keychain, [kSecAttrApplicationLabel as String: label])
                == [chosen.x963Representation, chosen.publicKey.x963Representation])
        #expect(keys(keychain, [kSecAttrApplicationLabel as String: label,
                                kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]) == [chosen.x963Representation])
        // Label and tag together: both must hold.
        #expect(keys(keychain, [kSecAttrApplicationLabel as String: label,
                                kSecAttrApplicationTag as String: Data("k7".utf8)])?.count == 2)
        #expect(keys(keychain, [kSecAttrApplicationLabel as String: label,
                                kSecAttrApplicationTag as String: Data("k8".utf8)]) == nil)
    }

    @Test("certificates by kSecAttrPublicKeyHash (SHA-1 of openssl's public key): exactly the certificate of that key")
    func certificatesByPublicKeyHash() throws {
        let keychain = PrivateKeychain()
        var hashes: [Data] = []
        var certificates: [Data] = []
        for serial in ["0x01", "0x02", "0x03"] {
            let material = try OpensslMaterial(subject: "/CN=Lookup \(serial)", serial: serial)
            let certificate = try #require(SecCertificateCreateWithData(nil, material.certificate as CFData))
            #expect(keychain.add([kSecValueRef as String: certificate]) == errSecSuccess)
            let publicKey = try P256.Signing.PublicKey(pemRepresentation: try material.x509Prints(["-pubkey"]))
            hashes.append(Data(Insecure.SHA1.hash(data: publicKey.x963Representation)))
            certificates.append(material.certificate)
        }
        for (hash, der) in zip(hashes, certificates) {
            let found = keychain.copyMatching([kSecClass as String: kSecClassCertificate, kSecAttrPublicKeyHash as String: hash,
                                               kSecReturnData as String: true, kSecMatchLimit as String: kSecMatchLimitAll])
            #expect(found.status == errSecSuccess)
            #expect(found.result as? [Data] == [der])
        }
        #expect(keychain.copyMatching([kSecClass as String: kSecClassCertificate,
                                       kSecAttrPublicKeyHash as String: Data(hashes[0].dropLast())]).status
                == errSecItemNotFound)
    }

    @Test("tag combined with an attribute that has no column (kSecAttrLabel): both must match")
    func tagWithOtherAttributes() throws {
        let keychain = PrivateKeychain()
        let tag = Data("com.example.labelled".utf8)
        let first = P256.Signing.PrivateKey()
        let second = P256.Signing.PrivateKey()
        #expect(add(keychain, try Self.secKey(first), tag: tag, [kSecAttrLabel as String: "first"]) == errSecSuccess)
        #expect(add(keychain, try Self.secKey(second), tag: tag, [kSecAttrLabel as String: "second"]) == errSecSuccess)
        #expect(keys(keychain, byTag(tag).merging([kSecAttrLabel as String: "second"]) { $1 }) == [second.x963Representation])
        #expect(keys(keychain, byTag(tag).merging([kSecAttrLabel as String: "third"]) { $1 }) == nil)
    }

    @Test("SecItemUpdate of the tag: found by the new tag, no longer by the old; SecItemDelete by tag removes only that key")
    func updateAndDeleteByTag() throws {
        let keychain = PrivateKeychain()
        let first = P256.Signing.PrivateKey()
        let second = P256.Signing.PrivateKey()
        #expect(add(keychain, try Self.secKey(first), tag: Data("com.example.a".utf8)) == errSecSuccess)
        #expect(add(keychain, try Self.secKey(second), tag: Data("com.example.ab".utf8)) == errSecSuccess)
        let renamed = Data("com.example.renamed".utf8)
        #expect(keychain.update([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data("com.example.a".utf8)],
                                [kSecAttrApplicationTag as String: renamed]) == errSecSuccess)
        #expect(keys(keychain, byTag(renamed)) == [first.x963Representation])
        #expect(keys(keychain, byTag(Data("com.example.a".utf8))) == nil)
        #expect(keychain.delete([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: renamed]) == errSecSuccess)
        #expect(keys(keychain, byTag(renamed)) == nil)
        #expect(keys(keychain, byTag(Data("com.example.ab".utf8))) == [second.x963Representation])
    }
}
