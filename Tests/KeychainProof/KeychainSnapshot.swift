import Foundation
import GRDB

/// What a keychain's database holds now, read through SQLite on a read-only connection of
/// our own, closed before the call under test: the live keybag rows, the `password` row of
/// `meta`, and every item's sealed blobs.
public struct KeychainSnapshot: Sendable {
    public struct KeybagRow: Sendable, Equatable {
        public let name: String
        public let wrapping: String
        public let wrapped: [UInt8]
    }

    public let keybag: [String: KeybagRow]
    public let password: StoredValue?
    /// The sealed attributes and secret of every item, by row id.
    public let items: [Int64: (attributes: [UInt8], secret: [UInt8])]

    public var hasPassword: Bool { password != nil }

    /// Before a keychain exists.
    public static let none = KeychainSnapshot(keybag: [:], password: nil, items: [:])

    private init(keybag: [String: KeybagRow], password: StoredValue?, items: [Int64: (attributes: [UInt8], secret: [UInt8])]) {
        self.keybag = keybag
        self.password = password
        self.items = items
    }

    public init(database: URL) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "remanence-snapshot"
        let queue = try DatabaseQueue(path: database.path, configuration: configuration)
        defer { try? queue.close() }
        (keybag, password, items) = try queue.read { db in
            var keybag: [String: KeybagRow] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, wrapping, wrapped FROM keybag") {
                let name: String = try row.decode(forColumn: "name")
                keybag[name] = KeybagRow(name: name, wrapping: try row.decode(forColumn: "wrapping"),
                                         wrapped: Array(try row.decode(forColumn: "wrapped") as Data))
            }
            let password = try DatabaseValue.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'password'")
                .map(Self.storedValue)
            var items: [Int64: (attributes: [UInt8], secret: [UInt8])] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, attributes, secret FROM item") {
                let secret: Data? = try row.decode(forColumn: "secret")
                items[try row.decode(forColumn: "id")] = (Array(try row.decode(forColumn: "attributes") as Data),
                                                          Array(secret ?? Data()))
            }
            return (keybag, password, items)
        }
    }

    /// Every sealed blob of an item, for telling which ones a call superseded.
    public var sealedBlobs: Set<[UInt8]> {
        Set(items.values.flatMap { [$0.attributes, $0.secret] }.filter { !$0.isEmpty })
    }

    static func storedValue(_ value: DatabaseValue) -> StoredValue {
        switch value.storage {
        case .null: .null
        case .int64(let integer): .integer(integer)
        case .double(let real): .real(real)
        case .string(let text): .text(text)
        case .blob(let data): .blob(Array(data))
        }
    }
}
