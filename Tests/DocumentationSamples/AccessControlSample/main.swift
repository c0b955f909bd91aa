import Foundation
import Security

// An item whose secret needs the user's presence: their login password, checked by PAM.
var error: Unmanaged<CFError>?
guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                   .userPresence, &error) else {
    print("cannot create the access control: \(error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? 0)")
    exit(1)
}
let item: [String: Any] = [
    kSecClass as String: kSecClassGenericPassword,
    kSecAttrService as String: "example.com",
    kSecAttrAccount as String: "alice",
]
SecItemDelete(item as CFDictionary)
let protected = item.merging([kSecAttrAccessControl as String: access,
                              kSecValueData as String: Data("s3cr3t".utf8)]) { $1 }
print(SecItemAdd(protected as CFDictionary, nil) == errSecSuccess)   // Prints: true

// Attributes never ask; the protection comes back as kSecAttrAccessible.
var result: CFTypeRef?
SecItemCopyMatching(item.merging([kSecReturnAttributes as String: true]) { $1 } as CFDictionary, &result)
let attributes = result as? [String: Any] ?? [:]
print(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String)   // Prints: true

// The secret asks, unless the call says it may not: then it fails at once.
let mayNotAsk = item.merging([kSecReturnData as String: true,
                              kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail]) { $1 }
print(SecItemCopyMatching(mayNotAsk as CFDictionary, &result) == errSecInteractionNotAllowed)   // Prints: true
