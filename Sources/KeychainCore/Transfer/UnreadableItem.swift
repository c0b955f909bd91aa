import Foundation

/// An item whose sealed attributes or data failed to open (errSecDecode: damaged, or
/// altered by someone with the files), named by what its row still says in the clear.
///
/// An export or a dump skips such an item and goes on with the rest; this is what it
/// reports, so that the user knows which item is lost. Nothing here was sealed: the row id,
/// the class, the protection class and the synchronizable flag are plain columns.
package struct UnreadableItem: Sendable, Hashable, CustomStringConvertible {
    /// The row's id in the keychain's `item` table.
    package let rowID: Int64
    /// The class its row records; nil when the column holds no known class.
    package let itemClass: ItemClass?
    /// The protection class its row records (`ak`, `cku`, ...), as stored.
    package let protection: String
    package let isSynchronizable: Bool

    init(rowID: Int64, classCode: Int, protection: String, sync: Int) {
        self.rowID = rowID
        itemClass = ItemClass.allCases.first { $0.storageCode == classCode }
        self.protection = protection
        isSynchronizable = sync != 0
    }

    init(_ row: StoredRow) {
        self.init(rowID: row.id, classCode: row.columns.classCode, protection: row.columns.protection,
                  sync: row.columns.sync)
    }

    /// `row 3: class genp, protection ak, not synchronizable`.
    package var description: String {
        "row \(rowID): class \(itemClass?.rawValue ?? "unknown"), protection \(protection), "
            + (isSynchronizable ? "synchronizable" : "not synchronizable")
    }
}
