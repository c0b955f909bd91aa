import Foundation
import Security
import Testing

// Helpers for the behaviour tests of §1–§4 of the spec. Names are prefixed `spec` so they
// cannot clash with helpers of other test files.

/// An internet-password query.
func specInternetPassword(
    account: String = "alice", server: String = "example.com", extra: [String: Any] = [:]
) -> [String: Any] {
    [
        kSecClass as String: kSecClassInternetPassword,
        kSecAttrAccount as String: account,
        kSecAttrServer as String: server,
    ].merging(extra) { _, new in new }
}

/// A certificate query with the three class attributes of its primary key.
func specCertificate(
    type: Int = 1, issuer: String = "CN=Example CA", serial: String = "01", extra: [String: Any] = [:]
) -> [String: Any] {
    [
        kSecClass as String: kSecClassCertificate,
        kSecAttrCertificateType as String: type,
        kSecAttrIssuer as String: issuer,
        kSecAttrSerialNumber as String: serial,
    ].merging(extra) { _, new in new }
}

/// A key query with an application tag and a label.
func specKey(tag: String = "com.example.key", label: String = "key-1", extra: [String: Any] = [:]) -> [String: Any] {
    [
        kSecClass as String: kSecClassKey,
        kSecAttrKeyClass as String: kSecAttrKeyClassSymmetric,
        kSecAttrApplicationTag as String: tag,
        kSecAttrApplicationLabel as String: label,
    ].merging(extra) { _, new in new }
}

extension TestKeychain {
    /// The attributes dictionary of the one item a query matches, or nil with its status.
    func specAttributes(_ query: [String: Any]) -> (status: OSStatus, attributes: [String: Any]?) {
        let found = copyMatching(query.with([kSecReturnAttributes as String: true]))
        return (found.status, found.result as? [String: Any])
    }

    /// The secret of the one item a query matches.
    func specData(_ query: [String: Any]) -> Data? {
        copyMatching(query.with([kSecReturnData as String: true])).result as? Data
    }

    /// How many items a query matches (0 when errSecItemNotFound).
    func specCount(_ query: [String: Any]) -> Int {
        let found = copyMatching(query.with([
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnPersistentRef as String: true,
        ]))
        guard found.status == errSecSuccess else { return 0 }
        return (found.result as? [Any])?.count ?? -1
    }

    /// The persistent reference of the one item a query matches.
    func specPersistentRef(_ query: [String: Any]) -> Data? {
        copyMatching(query.with([kSecReturnPersistentRef as String: true])).result as? Data
    }
}
