import Crypto
import Foundation

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

    /// The canonical encoding kept in `kSecAttrGeneric`: the 4 bytes `SSA1`, the number of
    /// pairs as a 32-bit big-endian integer, then each pair in ascending byte order of its
    /// name, as the name's UTF-8 length (32-bit big-endian) and bytes, then the value's.
    /// One set has exactly one encoding.
    var encoded: Data {
        var bytes = Data(Self.magic)
        Self.append(UInt32(values.count), to: &bytes)
        for name in values.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            for text in [name, values[name] ?? ""] {
                Self.append(UInt32(text.utf8.count), to: &bytes)
                bytes.append(contentsOf: Array(text.utf8))
            }
        }
        return bytes
    }

    /// The set that `data` encodes, or nil when it is not exactly an ``encoded`` set (the
    /// generic data of an item some other program wrote).
    init?(encoded data: Data) {
        let bytes = [UInt8](data)
        var offset = 0
        guard let set = Self.decode(bytes, at: &offset), offset == bytes.count else { return nil }
        self = set
    }

    /// The ``encoded`` set at `offset` of `bytes`, with `offset` moved past it; nil when none
    /// starts there.
    static func decode(_ bytes: [UInt8], at start: inout Int) -> ItemAttributes? {
        guard bytes.count - start >= 8, Array(bytes[start..<start + 4]) == Self.magic else { return nil }
        var offset = start + 4
        func integer() -> Int? {
            guard bytes.count - offset >= 4 else { return nil }
            let value = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            return value
        }
        func text() -> (bytes: ArraySlice<UInt8>, string: String)? {
            guard let length = integer(), length <= Limits.stringBytes, bytes.count - offset >= length else { return nil }
            let slice = bytes[offset..<offset + length]
            offset += length
            guard let string = String(validating: slice, as: UTF8.self) else { return nil }
            return (slice, string)
        }
        guard let count = integer(), count <= Limits.attributeCount else { return nil }
        var values: [String: String] = [:]
        var previous: ArraySlice<UInt8>?
        for _ in 0..<count {
            guard let name = text(), let value = text() else { return nil }
            // Strictly ascending names: one encoding per set, no name twice.
            if let previous, !previous.lexicographicallyPrecedes(name.bytes) { return nil }
            previous = name.bytes
            values[name.string] = value.string
        }
        start = offset
        return ItemAttributes(trusted: values)
    }

    private static let magic: [UInt8] = Array("SSA1".utf8)

    static func append(_ value: UInt32, to bytes: inout Data) {
        bytes.append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
