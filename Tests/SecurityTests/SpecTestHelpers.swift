import Foundation
import Security
import Testing

// Helpers for the tests of Apple's SecItem behaviour (names, status codes, primary keys and
// the rules of each call). Names are prefixed `spec` so they
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
