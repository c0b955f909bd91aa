import Crypto
import Foundation
import KeychainCore

/// The lookup attributes of a Secret Service item (name/value strings, `xdg:schema`
/// included), and how they sit in a keychain generic password.
///
/// The whole set is kept in the item's `kSecAttrGeneric`, which the keychain seals like
/// every attribute, in a canonical encoding (``encoded``), so that a search by any
/// attributes finds it. Two of them also fill the keychain's own fields, so that other
/// keychain tools see the item under the names they search by: `service` is
/// `kSecAttrService`, and `account`, else `username`, is `kSecAttrAccount`.
struct ItemAttributes: Equatable, Sendable {
    let values: [String: String]

    /// `values`, checked against ``Limits``.
    init(checking values: [String: String]) throws(BusFailure) {
        guard values.count <= Limits.attributeCount else {
            throw .invalidArguments("too many attributes: \(values.count), at most \(Limits.attributeCount)")
        }
        for (name, value) in values where name.utf8.count > Limits.stringBytes || value.utf8.count > Limits.stringBytes {
            throw .invalidArguments("the attribute '\(name.prefix(64))' is longer than \(Limits.stringBytes) bytes")
        }
        self.values = values
    }

    private init(trusted values: [String: String]) {
        self.values = values
    }

    /// The attributes of an item that another keychain tool stored without a set of its own
    /// (`keychainctl add-generic-password -s S -a A`): its service and account, where not
    /// empty, so that `secret-tool lookup service S account A` finds it.
    static func derived(service: String, account: String) -> ItemAttributes {
        var values: [String: String] = [:]
        if !service.isEmpty { values["service"] = service }
        if !account.isEmpty { values["account"] = account }
        return ItemAttributes(trusted: values)
    }

    /// Whether every pair of `query` is one of these attributes (an empty query matches all),
    /// where `account` and `username` both name the item's account (``account``): a query's
    /// `account` matches the account, and its `username` matches the account or a `username`
    /// attribute kept beside an `account`. Python keyring's `username` and keychainctl's
    /// account are then one thing.
    func matches(_ query: ItemAttributes) -> Bool {
        query.values.allSatisfy { name, value in
            switch name {
            case "account": account == value
            case "username": account == value || values["username"] == value
            default: values[name] == value
            }
        }
    }

    /// The item's account: the `account` attribute, else `username` (Python keyring's name
    /// for it); nil when it has neither.
    var account: String? { values["account"] ?? values["username"] }

    /// The keychain's `kSecAttrService`: the `service` attribute, else ``fingerprint``.
    var keychainService: String { keychainService(copy: nil) }

    /// The keychain's `kSecAttrAccount`: the `account` attribute, else `username`, else
    /// ``fingerprint``.
    var keychainAccount: String { keychainAccount(copy: nil) }

    /// Whether the keychain's service or account is a stand-in (``fingerprint``) rather than
    /// an attribute of the set.
    var hasStandIn: Bool { values["service"] == nil || account == nil }

    /// ``keychainService`` of a further item with this same set: the Secret Service lets a
    /// client create several (CreateItem without `replace`), while the keychain keeps one
    /// generic password per service and account, so each further one gets a stand-in of its
    /// own, ``fingerprint`` followed by `:` and `copy`.
    func keychainService(copy: String?) -> String { values["service"] ?? standIn(copy: copy) }

    /// ``keychainAccount`` of a further item with this same set; see ``keychainService(copy:)``.
    func keychainAccount(copy: String?) -> String { account ?? standIn(copy: copy) }

    private func standIn(copy: String?) -> String { fingerprint + (copy.map { ":" + $0 } ?? "") }

    /// What stands in for a missing service or account: `secret-service:` and the first 16
    /// bytes of the SHA-256 of ``encoded`` in hex. The keychain keeps one generic password per
    /// service and account, and a Secret Service client may store many items without them
    /// (a schema's own attributes): each distinct set then gets keychain fields of its own.
    var fingerprint: String {
        "secret-service:" + SHA256.hash(data: encoded).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The canonical encoding kept in `kSecAttrGeneric` (``LookupAttributeSet/encoded``),
    /// which the keychain indexes pair by pair, so that a search by any attributes finds the
    /// item without opening the others.
    var encoded: Data { LookupAttributeSet(values).encoded }

    /// The ``encoded`` set at `offset` of `bytes`, with `offset` moved past it; nil when none
    /// starts there.
    static func decode(_ bytes: [UInt8], at start: inout Int) -> ItemAttributes? {
        LookupAttributeSet.decode(bytes, at: &start, maximumCount: Limits.attributeCount,
                                  maximumBytes: Limits.stringBytes).map { ItemAttributes(trusted: $0.values) }
    }
}
