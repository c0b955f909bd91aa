import Foundation
import Security

/// The items the proof suites write: generic passwords whose secret is `S:<token>` and
/// whose label is `L:<token>`, set together by every add and update. An item whose secret
/// and label name different tokens is a change that was half applied.
public enum ProofItems {
    public static func query(service: String, account: String? = nil) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
        ]
        if let account { query[kSecAttrAccount as String] = account }
        return query
    }

    public static func values(_ token: String) -> [String: Any] {
        [kSecValueData as String: Data("S:\(token)".utf8), kSecAttrLabel as String: "L:\(token)"]
    }

    public static func add(service: String, account: String, token: String, extra: [String: Any] = [:]) -> OSStatus {
        let attributes = query(service: service, account: account)
            .merging(values(token)) { $1 }.merging(extra) { $1 }
        return SecItemAdd(attributes as CFDictionary, nil)
    }

    /// Sets a new token on every item `query` matches.
    public static func update(_ query: [String: Any], token: String) -> OSStatus {
        SecItemUpdate(query as CFDictionary, values(token) as CFDictionary)
    }

    /// One item's token, read from its secret.
    public static func read(service: String, account: String) -> (status: OSStatus, token: String?) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(
            query(service: service, account: account).merging([kSecReturnData as String: true]) { $1 } as CFDictionary,
            &result)
        return (status, (result as? Data).flatMap(token(of:)))
    }

    /// What a stored item holds: the tokens of its secret and of its label.
    public struct Stored: Equatable, Sendable {
        public let secret: String?
        public let label: String?
        /// Written whole: secret and label from one add or update.
        public var isWhole: Bool { secret != nil && secret == label }
    }

    /// Every item of a service by account; itemNotFound gives an empty list.
    public static func readAll(service: String) -> (status: OSStatus, items: [String: Stored]) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query(service: service).merging([
            kSecReturnData as String: true,
            kSecReturnAttributes as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]) { $1 } as CFDictionary, &result)
        if status == errSecItemNotFound { return (errSecSuccess, [:]) }
        guard status == errSecSuccess else { return (status, [:]) }
        var items: [String: Stored] = [:]
        for entry in result as? [[String: Any]] ?? [] {
            let account = entry[kSecAttrAccount as String] as? String ?? ""
            let label = (entry[kSecAttrLabel as String] as? String).flatMap { $0.hasPrefix("L:") ? String($0.dropFirst(2)) : nil }
            items[account] = Stored(secret: (entry[kSecValueData as String] as? Data).flatMap(token(of:)), label: label)
        }
        return (status, items)
    }

    static func token(of data: Data) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        return text.hasPrefix("S:") ? String(text.dropFirst(2)) : nil
    }
}
