import Foundation
import Security
import Testing
import TestSupport

@Suite struct SmokeTests {
    @Test func addFindDelete() {
        let keychain = PrivateKeychain()
        let item = genericPassword().with([kSecValueData as String: Data("s3cret".utf8)])
        #expect(keychain.add(item) == errSecSuccess)
        let found = keychain.copyMatching(genericPassword().with([kSecReturnData as String: true]))
        #expect(found.status == errSecSuccess)
        #expect(found.result as? Data == Data("s3cret".utf8))
        #expect(keychain.delete(genericPassword()) == errSecSuccess)
        #expect(keychain.copyMatching(genericPassword()).status == errSecItemNotFound)
    }
}
