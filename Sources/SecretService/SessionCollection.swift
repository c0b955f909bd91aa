import Foundation
import KeychainCore

/// The collection `session` (alias `session`), as the Secret Service API describes it: items
/// kept in the provider's memory only, never written anywhere, and gone when the provider
/// exits. Clients use it for secrets that should not outlive the login session, and test
/// suites (Python keyring's, secretstorage's) for items that must not touch the user's
/// keychains.
///
/// Each secret is held in its own ``SecretBytes`` (kept out of swap where the system allows,
/// zeroed when released): when its item is deleted, when it is replaced by SetSecret, and
/// when the provider ends (``removeAll()``). It never locks: it has no password to lock it
/// with, and nothing of it is on disk to protect.
///
/// Its items are named like a keychain's (`genp` and 16 random bytes, in hex), so that one
/// path grammar serves both. A keychain that happens to be named `session` is not a
/// collection: this one has its path.
final class SessionCollection {
    static let name = "session"
    static var path: String { SecretObject.collectionPath(name) }
    /// Items and bytes of secrets it holds at most, so that no client makes the provider hold
    /// unbounded memory.
    static let itemLimit = 10_000
    static let secretByteLimit = 64 << 20

    struct Item {
        var label: String
        var attributes: ItemAttributes
        var secret: SecretBytes
        var contentType: String
        let created: UInt64
        var modified: UInt64
    }

    private(set) var label = "Session"
    let created: UInt64
    private(set) var modified: UInt64
    /// The items by reference, and their references in the order they were made.
    private var items: [Data: Item] = [:]
    private var order: [Data] = []
    private var secretBytes = 0

    init() {
        created = Self.now()
        modified = created
    }

    func object(_ reference: Data) -> SecretObject { .item(collection: Self.name, reference: reference) }

    /// Every item's reference, oldest first.
    var references: [Data] { order }

    func item(_ reference: Data) -> Item? { items[reference] }

    /// The items whose attributes include every pair of `query`, as a keychain collection's
    /// search matches them (``ItemAttributes/matches(_:)``), oldest first.
    func search(_ query: ItemAttributes) -> [Data] {
        order.filter { items[$0]?.attributes.matches(query) == true }
    }

    /// The item whose attributes are exactly `attributes`, which CreateItem with `replace`
    /// changes instead of adding one.
    func same(_ attributes: ItemAttributes) -> Data? {
        order.first { items[$0]?.attributes == attributes }
    }

    /// Adds an item holding a copy of `secret`; its reference.
    func add(label: String, attributes: ItemAttributes, secret: Data, contentType: String) throws(BusFailure) -> Data {
        guard items.count < Self.itemLimit else {
            throw .failed("the session collection holds \(Self.itemLimit) items, its most; delete some first")
        }
        try checkRoom(for: secret.count)
        var reference = Data("genp".utf8)
        withUnsafeBytes(of: UUID().uuid) { reference.append(contentsOf: $0) }
        let now = Self.now()
        items[reference] = Item(label: label, attributes: attributes, secret: Self.copy(secret), contentType: contentType,
                                created: now, modified: now)
        order.append(reference)
        secretBytes += secret.count
        modified = now
        return reference
    }

    /// Changes what is given of the item `reference`; false when there is none. A secret
    /// replaced is zeroed.
    func update(_ reference: Data, label: String? = nil, attributes: ItemAttributes? = nil,
                secret: Data? = nil, contentType: String? = nil) throws(BusFailure) -> Bool {
        guard var item = items[reference] else { return false }
        if let secret {
            try checkRoom(for: secret.count - item.secret.count)
            secretBytes += secret.count - item.secret.count
            item.secret = Self.copy(secret)
        }
        if let label { item.label = label }
        if let attributes { item.attributes = attributes }
        if let contentType { item.contentType = contentType }
        item.modified = Self.now()
        items[reference] = item
        modified = item.modified
        return true
    }

    /// Deletes the item `reference` (its secret zeroed); false when there was none.
    func delete(_ reference: Data) -> Bool {
        guard let item = items.removeValue(forKey: reference) else { return false }
        secretBytes -= item.secret.count
        order.removeAll { $0 == reference }
        modified = Self.now()
        return true
    }

    func setLabel(_ label: String) {
        self.label = label
        modified = Self.now()
    }

    /// Forgets every item, their secrets zeroed: when the provider ends.
    func removeAll() {
        items.removeAll()
        order.removeAll()
        secretBytes = 0
    }

    private func checkRoom(for added: Int) throws(BusFailure) {
        guard secretBytes + added <= Self.secretByteLimit else {
            throw .failed("the session collection's secrets would pass \(Self.secretByteLimit) bytes, its most; "
                          + "delete some first")
        }
    }

    /// A copy of `secret` that zeroes itself when released.
    private static func copy(_ secret: Data) -> SecretBytes {
        secret.withUnsafeBytes { SecretBytes(copying: $0) }
    }

    /// Seconds since 1970, as the API's `t` dates are.
    private static func now() -> UInt64 { UInt64(max(0, Date().timeIntervalSince1970)) }
}
