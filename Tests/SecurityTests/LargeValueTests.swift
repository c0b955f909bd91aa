import Foundation
import Security
import Testing
import TestSupport

/// Secrets and Data attributes of every size come back byte for byte, through every result
/// shape and as both `Data` and `NSData`. The parser reads NSData values
/// and the results hold their own NSData subclass, both to avoid Linux Foundation's
/// byte-at-a-time bridging; these tests pin that nothing is lost on the way.
@Suite struct LargeValueTests {
    /// Bytes of every value, the same for a size on every run, so that a failure repeats.
    static func bytes(_ count: Int, seed: UInt64 = 0) -> Data {
        var generator = SeededGenerator(seed: UInt64(count) &+ seed)
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    @Test("A secret of any size round-trips through add, find and update",
          arguments: [0, 1, 32, 4_096, 1 << 20])
    func secretRoundTrips(size: Int) throws {
        let keychain = PrivateKeychain()
        let secret = Self.bytes(size)
        var added: CFTypeRef?
        #expect(keychain.add(genericPassword().with([
            kSecValueData as String: secret, kSecReturnData as String: true,
        ]), result: &added) == errSecSuccess)
        #expect(added as? Data == secret)

        let dataOnly = keychain.copyMatching(genericPassword().with([kSecReturnData as String: true]))
        #expect(dataOnly.result as? Data == secret)
        #expect((dataOnly.result as? NSData)?.length == size)

        let withAttributes = keychain.copyMatching(genericPassword().with([
            kSecReturnData as String: true, kSecReturnAttributes as String: true,
        ]))
        let attributes = try #require(withAttributes.result as? [String: Any])
        // An empty secret is stored as no secret: with attributes it comes back as an item
        // added without data does, without `v_Data` (as Apple's regression test si-80-empty-data checks).
        #expect(attributes[kSecValueData as String] as? Data == (size == 0 ? nil : secret))
        #expect(attributes[kSecAttrAccount as String] as? String == "alice")

        let changed = Self.bytes(size, seed: 1)
        #expect(keychain.update(genericPassword(), [kSecValueData as String: changed]) == errSecSuccess)
        #expect(keychain.copyMatching(genericPassword().with([kSecReturnData as String: true])).result as? Data
            == changed)
    }

    @Test("A 4 KiB Data account is stored, found by itself and returned as Data")
    func largeDataAccount() throws {
        let keychain = PrivateKeychain()
        let account = Self.bytes(4_096)
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "example.com",
            kSecAttrAccount as String: account,
        ]
        #expect(keychain.add(item.with([kSecValueData as String: Data("s".utf8)])) == errSecSuccess)
        let found = keychain.copyMatching(item.with([kSecReturnAttributes as String: true]))
        let attributes = try #require(found.result as? [String: Any])
        #expect(attributes[kSecAttrAccount as String] as? Data == account)
        #expect(keychain.copyMatching(item.with([kSecAttrAccount as String: account.dropLast()])).status
            == errSecItemNotFound)
    }

    @Test("kSecValueData given as NSData or NSMutableData is read like Data")
    func foundationDataObjects() throws {
        let keychain = PrivateKeychain()
        let secret = Self.bytes(100)
        #expect(keychain.add(genericPassword(account: "a").with([kSecValueData as String: NSData(data: secret)]))
            == errSecSuccess)
        #expect(keychain.add(genericPassword(account: "b").with([kSecValueData as String: NSMutableData(data: secret)]))
            == errSecSuccess)
        for account in ["a", "b"] {
            let found = keychain.copyMatching(genericPassword(account: account).with([kSecReturnData as String: true]))
            #expect(found.result as? Data == secret)
        }
    }
}
