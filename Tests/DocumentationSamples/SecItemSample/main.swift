import Foundation
import Security   // Apple's framework on Apple platforms, this package on Linux

let item: [String: Any] = [
    kSecClass as String: kSecClassGenericPassword,
    kSecAttrService as String: "api.example.com",
    kSecAttrAccount as String: "deploy-bot",
    kSecValueData as String: Data("s3cr3t".utf8),
]
let added = SecItemAdd(item as CFDictionary, nil)   // errSecDuplicateItem when it is there already
print(added == errSecSuccess || added == errSecDuplicateItem)   // Prints: true

var result: CFTypeRef?
let found = SecItemCopyMatching([
    kSecClass as String: kSecClassGenericPassword,
    kSecAttrService as String: "api.example.com",
    kSecAttrAccount as String: "deploy-bot",
    kSecReturnData as String: true,
] as CFDictionary, &result)
if found == errSecSuccess, let secret = result as? Data {
    print(String(decoding: secret, as: UTF8.self))   // Prints: s3cr3t
} else {
    print(SecCopyErrorMessageString(found, nil).map { $0 as String } ?? "OSStatus \(found)")
}
