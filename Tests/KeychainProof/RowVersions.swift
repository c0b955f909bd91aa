import Foundation

/// Every version of every row of a keychain's `keybag`, `meta` and `item` tables that any
/// page version in its database file or write-ahead log holds, live or superseded.
///
/// Rows are recognised by their shape (see Sources/KeychainCore/Storage/KeychainSchema.swift)
/// rather than through the tables' root pages, so that rows on pages that have since left
/// their table (freed, or moved by a split) count too: `keybag (name, wrapping, wrapped)` is
/// text, text, blob; `meta (key, value)` is text, any; `item` has twelve columns, the first
/// the row id's alias (stored as NULL), fifteen in rows written since format 4 added the
/// lookup columns after the secret, sixteen since format 6 added the `paired` mark and
/// seventeen since format 7 added the `indexed` mark. `sqlite_master` has five and is none
/// of them.
public struct RowVersions: Sendable {
    public struct KeybagRow: Sendable {
        public let name: String
        public let wrapping: String
        public let wrapped: [UInt8]
        public let location: String
    }

    public struct MetaRow: Sendable {
        public let key: String
        public let value: StoredValue
        public let location: String
    }

    public struct ItemRow: Sendable {
        public let rowID: Int64
        public let protection: String?
        public let attributes: [UInt8]?
        public let secret: [UInt8]?
        public let location: String
    }

    public private(set) var keybag: [KeybagRow] = []
    public private(set) var meta: [MetaRow] = []
    public private(set) var items: [ItemRow] = []
    /// How many page versions were read, for reports.
    public let pageVersions: Int

    /// Reads the database file `database` and its log.
    public init(database: URL) throws {
        let pages = try PageVersions(database: database)
        pageVersions = pages.versions.count
        for record in TableLeafRecords.all(in: pages) {
            let values = record.values
            let location = record.version.location
            switch values.count {
            case 3:
                if let name = values[0].text, let wrapping = values[1].text, let wrapped = values[2].blob {
                    keybag.append(KeybagRow(name: name, wrapping: wrapping, wrapped: wrapped, location: location))
                }
            case 2:
                if let key = values[0].text { meta.append(MetaRow(key: key, value: values[1], location: location)) }
            case 12 where values[0] == .null, 15 where values[0] == .null, 16 where values[0] == .null,
                 17 where values[0] == .null:
                items.append(ItemRow(rowID: record.rowID, protection: values[4].text, attributes: values[10].blob,
                                     secret: values[11].blob, location: location))
            default:
                // A record cut short by a missing overflow page: an item if it starts like one.
                if record.truncated, values.count > 4, values[0] == .null {
                    items.append(ItemRow(rowID: record.rowID, protection: values[4].text,
                                         attributes: values.count > 10 ? values[10].blob : nil, secret: nil,
                                         location: location))
                }
            }
        }
    }

    /// The versions of the `password` row of `meta`.
    public var passwordRows: [MetaRow] { meta.filter { $0.key == "password" } }
}
