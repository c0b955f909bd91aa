import Foundation
import Security
import Testing
import TestSupport

/// `SecItemCopyMatching(unbridged:_:)`, the form keychainctl calls with the Swift dictionary it
/// built: for every query it gives the status and the result that `SecItemCopyMatching` gives
/// for the same dictionary bridged to a `CFDictionary`, so that keychainctl finds exactly what
/// an app would.
@Suite("SecItemCopyMatching(unbridged:) answers as the CFDictionary call does")
struct UnbridgedCopyMatchingTests {
    private let keychain: PrivateKeychain = {
        let keychain = PrivateKeychain()
        for (account, secret) in [("a", "secret-a"), ("b", "secret-b")] {
            _ = keychain.add(genericPassword(account: account).with([
                kSecValueData as String: Data(secret.utf8),
                kSecAttrCreator as String: 0x4142_4344,
            ]))
        }
        return keychain
    }()

    /// Both calls' status and result for one query.
    private func bothForms(_ query: [String: Any]) -> (bridged: (OSStatus, CFTypeRef?), unbridged: (OSStatus, CFTypeRef?)) {
        let bridged = keychain.copyMatching(query)
        var result: CFTypeRef?
        let status = keychain.run { SecItemCopyMatching(unbridged: query, &result) }
        return ((bridged.status, bridged.result), (status, result))
    }

    @Test("The same secret, with kSecReturnData given as a Swift Bool or as kCFBooleanTrue")
    func sameSecret() throws {
        for flag: Any in [true, kCFBooleanTrue as Any] {
            let (bridged, unbridged) = bothForms(genericPassword(account: "b").with([kSecReturnData as String: flag]))
            #expect(bridged.0 == errSecSuccess)
            #expect(unbridged.0 == errSecSuccess)
            let expected = try #require(bridged.1 as? Data)
            #expect(expected == Data("secret-b".utf8))
            #expect(unbridged.1 as? Data == expected)
        }
    }

    @Test("The same attributes of every match, found by a number attribute and a CFString limit")
    func sameAttributes() throws {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrCreator as String: 0x4142_4344,
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            kSecReturnAttributes as String: true,
        ]
        let (bridged, unbridged) = bothForms(query)
        #expect(bridged.0 == errSecSuccess)
        #expect(unbridged.0 == errSecSuccess)
        let expected = try #require(bridged.1 as? [[String: Any]])
        let found = try #require(unbridged.1 as? [[String: Any]])
        #expect(expected.count == 2)
        #expect(found.map { $0[kSecAttrAccount as String] as? String } == expected.map { $0[kSecAttrAccount as String] as? String })
        #expect(found.map { $0[kSecAttrCreator as String] as? NSNumber } == expected.map { $0[kSecAttrCreator as String] as? NSNumber })
    }

    @Test("The same failure statuses: no match is errSecItemNotFound, a mistyped value errSecParam")
    func sameFailures() {
        let missing = bothForms(genericPassword(account: "nobody").with([kSecReturnData as String: true]))
        #expect(missing.bridged.0 == errSecItemNotFound)
        #expect(missing.unbridged.0 == errSecItemNotFound)
        #expect(missing.unbridged.1 == nil)
        // A return flag takes a boolean, not the number 1.
        let mistyped = bothForms(genericPassword(account: "a").with([kSecReturnData as String: 1]))
        #expect(mistyped.bridged.0 == errSecParam)
        #expect(mistyped.unbridged.0 == errSecParam)
        // An attribute of an unsupported type.
        let unsupported = bothForms(genericPassword(account: "a").with([kSecAttrLabel as String: [1, 2]]))
        #expect(unsupported.bridged.0 == errSecParam)
        #expect(unsupported.unbridged.0 == errSecParam)
    }
}
