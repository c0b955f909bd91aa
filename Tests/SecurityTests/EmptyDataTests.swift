import Foundation
import Security
import Testing
import TestSupport

/// As Apple's regression test si-80-empty-data checks: an item stored without data has no
/// `v_Data` in a result dictionary, and kSecReturnData alone gives empty Data.
@Suite("Items without data")
struct EmptyDataTests {
    @Test("si-80-empty-data: data + attributes of an item added without data has no v_Data key",
          arguments: [false, true])
    func noDataKey(withEmptyData: Bool) throws {
        let keychain = PrivateKeychain()
        let item = genericPassword()
        #expect(keychain.add(withEmptyData ? item.with([kSecValueData as String: Data()]) : item) == errSecSuccess)
        let found = keychain.copyMatching(item.with([kSecReturnData as String: true,
                                                     kSecReturnAttributes as String: true]))
        let dictionary = try #require(found.result as? [String: Any])
        #expect(dictionary[kSecValueData as String] == nil)
        #expect(dictionary[kSecAttrAccount as String] as? String == "alice")
        #expect(keychain.secret(item) == Data())
        // The add's own result has the same shape.
        var result: CFTypeRef?
        let other = genericPassword(account: "bob")
        #expect(keychain.add(other.with([kSecReturnData as String: true, kSecReturnAttributes as String: true]),
                             result: &result) == errSecSuccess)
        #expect((result as? [String: Any])?[kSecValueData as String] == nil)
    }
}
