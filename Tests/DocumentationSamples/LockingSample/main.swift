import Foundation
import Security

let password = Array("correct horse battery staple".utf8)

// The keychain "work": created, unlocked, on the first run; opened on the next ones.
var work: SecKeychain?
var status = SecKeychainCreate("work", UInt32(password.count), password, false, nil, &work)
if status == errSecDuplicateKeychain {
    status = SecKeychainOpen("work", &work)
}
guard status == errSecSuccess, let work else {
    print("cannot open the keychain work: OSStatus \(status)")
    exit(1)
}
// Unlocking an unlocked keychain does no harm; a wrong password gives errSecAuthFailed.
print(SecKeychainUnlock(work, UInt32(password.count), password, true) == errSecSuccess)   // Prints: true

let deploy: [String: Any] = [
    kSecClass as String: kSecClassGenericPassword,
    kSecAttrAccount as String: "deploy",
    kSecUseKeychain as String: work,
]
let secret = [kSecValueData as String: Data("s3cr3t".utf8)]
status = SecItemUpdate(deploy as CFDictionary, secret as CFDictionary)
if status == errSecItemNotFound {
    status = SecItemAdd(deploy.merging(secret) { $1 } as CFDictionary, nil)
}
print(status == errSecSuccess)   // Prints: true

var read = deploy
read[kSecReturnData as String] = true
var result: CFTypeRef?
print(SecKeychainLock(work) == errSecSuccess)   // Prints: true
// Locked: the item (kSecAttrAccessibleWhenUnlocked, the default) cannot be read, in any process.
print(SecItemCopyMatching(read as CFDictionary, &result) == errSecInteractionNotAllowed)   // Prints: true

print(SecKeychainUnlock(work, UInt32(password.count), password, true) == errSecSuccess)   // Prints: true
if SecItemCopyMatching(read as CFDictionary, &result) == errSecSuccess, let data = result as? Data {
    print(String(decoding: data, as: UTF8.self))   // Prints: s3cr3t
}

// Lock after 5 idle minutes, and when the machine suspends.
var settings = SecKeychainSettings(version: UInt32(SEC_KEYCHAIN_SETTINGS_VERS1),
                                   lockOnSleep: true, useLockInterval: true, lockInterval: 300)
print(SecKeychainSetSettings(work, &settings) == errSecSuccess)   // Prints: true
