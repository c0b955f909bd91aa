import Foundation
import GRDB

/// The entries of one index of keyed hashes that point at items (``LookupPairTable``'s
/// `item_pair`, ``AttributeIndexTable``'s `item_attribute`): how a row's entries are written,
/// in the transaction that writes the row, and how a row of an older format is marked once
/// they are. One mechanism for both, so that they cannot drift apart.
struct HashIndexEntries: Sendable {
    /// The index's table, its hash column, and the item's column that says its entries are
    /// written (0 for rows of a format without the index).
    let table: String
    let hashColumn: String
    let markColumn: String

    /// Writes the entries of row `rowID`, replacing any it had.
    func write(_ hashes: [Data], forRow rowID: Int64, replacing: Bool, in db: Database) throws {
        if replacing {
            try DirectStatement(db, sql: "DELETE FROM \(table) WHERE item = ?", values: [.integer(rowID)]).execute()
        }
        for hash in hashes {
            try DirectStatement(db, sql: "INSERT OR IGNORE INTO \(table) (\(hashColumn), item) VALUES (?, ?)",
                                values: [.blob(hash), .integer(rowID)]).execute()
        }
    }

    /// Marks row `rowID` indexed once its entries are written, apart from the row's own
    /// write (which sets the mark itself): for a row of an older format.
    func markIndexed(_ rowID: Int64, in db: Database) throws {
        try DirectStatement(db, sql: "UPDATE item SET \(markColumn) = 1 WHERE id = ? AND \(markColumn) = 0",
                            values: [.integer(rowID)]).execute()
    }
}
