import Foundation
import Security

// The SecItem calls inside the closure go to the keychain "fixtures" beside the login
// keychain, as a program whose only access group is com.example.tests.
let fixtures = KeychainEnvironment(directory: KeychainEnvironment.process.directory,
                                   keychainName: "fixtures", accessGroups: ["com.example.tests"])
let fixture: [String: Any] = [
    kSecClass as String: kSecClassGenericPassword,
    kSecAttrAccount as String: "fixture",
]
let added = KeychainEnvironment.withValue(fixtures) {
    _ = SecItemDelete(fixture as CFDictionary)   // from an earlier run
    return SecItemAdd(fixture.merging([kSecValueData as String: Data("s3cr3t".utf8)]) { $1 } as CFDictionary, nil)
}
print(added == errSecSuccess)   // Prints: true

// Outside the closure: this program's own groups, in the login keychain.
print(SecItemCopyMatching(fixture as CFDictionary, nil) == errSecItemNotFound)   // Prints: true

// Naming a group the program does not hold is refused.
var other = fixture
other[kSecAttrAccessGroup as String] = "com.example.tests"
print(SecItemCopyMatching(other as CFDictionary, nil) == errSecMissingEntitlement)   // Prints: true
