import Foundation
import GRDB

extension KeychainStore {
    /// Exports every migratable item (accessibility `ak`, `ck` or `dk`) of every class and
    /// access group, in insertion order, into an archive encrypted under `password`.
    ///
    /// Export is an operation of the keychain's owner, not of one app, so it is not limited
    /// to a caller's access groups. ThisDeviceOnly items are never exported: they are bound to
    /// this machine. The items
    /// are read from one snapshot of the keychain.
    ///
    /// Damage is contained: an item whose sealed attributes or data fail to open
    /// (errSecDecode) is left out and named in ``ArchiveExport/skipped``, and every other
    /// item is exported, so that one damaged row does not cost the backup of the rest.
    ///
    /// - Parameters:
    ///   - password: The archive's own password; it must not be empty.
    ///   - kdf: The scrypt parameters and salt the archive records. Keep the default, which
    ///     draws a new salt; weaker parameters are for tests only.
    /// - Returns: The archive (see ``importArchive(_:password:policy:dryRun:)``) and the
    ///   items it leaves out.
    /// - Throws: errSecInteractionNotAllowed when a migratable item's class key is locked,
    ///   errSecDecode when the table itself is malformed (a row without its nonce, say),
    ///   errSecParam for an empty password or KDF parameters out of bounds. Any error means
    ///   no archive.
    package func exportArchive(password: Data, kdf: PasswordKDF = .standard()) throws(KeychainError) -> ArchiveExport {
        let (items, skipped) = try Self.oneStatement(database, during: "export") { db in
            var items: [KeychainArchive.Item] = []
            var skipped: [UnreadableItem] = []
            try MatchPlan.everyRow.forEachRow(in: db, withSecret: true) { row in
                guard let accessibility = Accessibility(rawValue: row.columns.protection) else {
                    skipped.append(UnreadableItem(row))
                    return true
                }
                // Decided on the clear column, so that these items are not even opened.
                if !accessibility.isThisDeviceOnly {
                    do {
                        items.append(KeychainArchive.Item(record: try self.open(row), secret: try self.openSecret(row)))
                    } catch KeychainError.decode {
                        skipped.append(UnreadableItem(row))
                    }
                }
                return true
            }
            return (items, skipped)
        }
        return ArchiveExport(archive: try KeychainArchive.seal(items, password: password, kdf: kdf), skipped: skipped)
    }

    /// The clear columns of the row a persistent reference names, for reporting an item
    /// that failed to open (errSecDecode) when it was read by reference; nil when the
    /// reference names no row.
    package func unreadableItem(at reference: PersistentReference) throws(KeychainError) -> UnreadableItem? {
        guard let location = RowReference.location(of: reference) else { return nil }
        return try Self.oneStatement(database, during: "search") { db in
            // Cast, so that a column an attacker changed to another type reads as some value
            // rather than failing GRDB's conversion.
            try Row.fetchOne(db, sql: """
                SELECT IFNULL(CAST(class AS INTEGER), 0), IFNULL(CAST(sync AS INTEGER), 0),
                       IFNULL(CAST(protection AS TEXT), '') FROM item WHERE id = ? AND nonce = ?
                """, arguments: [location.rowID, location.nonce]).map { row in
                UnreadableItem(rowID: location.rowID, classCode: row[0], protection: row[2], sync: row[1])
            }
        }
    }

    /// Imports the items of an archive made by ``exportArchive(password:kdf:)``, in one
    /// transaction: all of them, or, on any error, none.
    ///
    /// Each item keeps every attribute it had (its access group, accessibility,
    /// synchronizable flag, creation and modification dates included) and its data, and
    /// gets a new persistent reference: references belong to one keychain. The importer is
    /// the keychain's owner, so any access group is accepted.
    ///
    /// - Parameters:
    ///   - archive: The archive's bytes.
    ///   - password: The password it was exported with.
    ///   - policy: What to do with an item whose identity the keychain already holds.
    ///   - dryRun: Runs the import and rolls it back: the report (or the error) says what
    ///     the import would do, and the keychain does not change. A command-line tool whose
    ///     ``ImportPolicy/failOnDuplicate`` import failed can so tell how many items collide,
    ///     with ``ImportPolicy/keepExisting``'s `skipped`.
    /// - Returns: How many items were imported, replaced and skipped.
    /// - Throws: errSecAuthFailed for a wrong password; errSecParam, saying so, for an
    ///   archive whose scrypt parameters ask for more than the bound allows (nothing is
    ///   derived then); errSecDecode for an archive that is
    ///   truncated, altered or of another format version; errSecDuplicateItem under
    ///   ``ImportPolicy/failOnDuplicate``; errSecInteractionNotAllowed when an item's class
    ///   key is locked.
    package func importArchive(_ archive: Data, password: Data, policy: ImportPolicy,
                              dryRun: Bool = false) throws(KeychainError) -> ImportReport {
        let items = try KeychainArchive.open(archive, password: password)
        var rows: [NewRow] = []
        var identities = Set<Data>()
        for item in items {
            let row = try newRow(item.record, secret: item.secret)
            // The identity hash covers the class: an archive written by an export holds each
            // item once, so a repeat is a damaged archive, which would import ambiguously.
            guard identities.insert(row.columns.identity).inserted else { throw .decode }
            rows.append(row)
        }
        let insert = { (db: Database) throws -> ImportReport in
            var report = ImportReport()
            for row in rows {
                switch policy {
                case .failOnDuplicate:
                    _ = try row.insert(into: db)
                    report.imported += 1
                case .keepExisting:
                    if try row.insertIfAbsent(into: db) == nil { report.skipped += 1 } else { report.imported += 1 }
                case .replaceExisting:
                    if try row.deleteItemWithSameIdentity(in: db) { report.replaced += 1 } else { report.imported += 1 }
                    _ = try row.insert(into: db)
                }
            }
            return report
        }
        guard dryRun else { return try write(during: "import", supersedes: policy == .replaceExisting, insert) }
        return try Self.oneStatement(database, during: "import") { db in
            var report = ImportReport()
            try db.inTransaction(.immediate) {
                report = try insert(db)
                return .rollback
            }
            return report
        }
    }
}
