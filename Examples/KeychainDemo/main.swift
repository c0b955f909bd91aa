// A walk through Keychain Services as Apple code writes it, on the default keychain
// ($XDG_DATA_HOME/keychains/login.keychain-db). The same code compiles on iOS and macOS.
import Foundation
import Security

let service = "swift-keychain-demo"
let account = "demo@example.com"

func check(_ status: OSStatus, _ what: String) {
    let message = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? ""
    print("\(what): \(status == errSecSuccess ? "ok" : "\(status) \(message)")")
}

let base: [String: Any] = [
    kSecClass as String: kSecClassGenericPassword,
    kSecAttrService as String: service,
    kSecAttrAccount as String: account,
]

// Start clean, so the walk-through can run again.
_ = SecItemDelete(base as CFDictionary)

var add = base
add[kSecValueData as String] = Data("correct horse battery staple".utf8)
add[kSecAttrLabel as String] = "Demo password"
add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
check(SecItemAdd(add as CFDictionary, nil), "add")
check(SecItemAdd(add as CFDictionary, nil), "add again (a duplicate)")

var query = base
query[kSecReturnData as String] = kCFBooleanTrue
query[kSecReturnAttributes as String] = true
query[kSecMatchLimit as String] = kSecMatchLimitOne
var result: CFTypeRef?
check(SecItemCopyMatching(query as CFDictionary, &result), "find")
if let item = result as? [String: Any], let data = item[kSecValueData as String] as? Data {
    let label = item[kSecAttrLabel as String] as? String ?? "?"
    let created = item[kSecAttrCreationDate as String] as? Date ?? Date.distantPast
    print("  label \"\(label)\", created \(created), secret of \(data.count) bytes read back")
}

let changes: [String: Any] = [kSecValueData as String: Data("a new secret".utf8)]
check(SecItemUpdate(base as CFDictionary, changes as CFDictionary), "update")

let all: [String: Any] = [
    kSecClass as String: kSecClassGenericPassword,
    kSecReturnAttributes as String: true,
    kSecMatchLimit as String: kSecMatchLimitAll,
]
result = nil
if SecItemCopyMatching(all as CFDictionary, &result) == errSecSuccess, let items = result as? [[String: Any]] {
    print("the keychain holds \(items.count) generic password(s) visible to this program")
}

check(SecItemDelete(base as CFDictionary), "delete")
result = nil
check(SecItemCopyMatching(query as CFDictionary, &result), "find after delete")
print("keychain: \(KeychainEnvironment.current.directory.path)/\(KeychainEnvironment.current.keychainName).keychain-db")
