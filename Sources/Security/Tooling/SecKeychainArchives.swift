import Foundation
@_implementationOnly import KeychainCore

// keychainctl's export-archive, import-archive and dump-keychain, on a `SecKeychain`: the
// calls the Apple API has no counterpart for, visible inside this package only.
extension SecKeychain {
    /// Opens the keychain (creating the default one on first use), as every call on it does,
    /// and says why it cannot: `SecKeychainGetStatus` gives only the status, and a tool
    /// should tell its user that a database has the wrong mode, not to restart the computer.
    package func checkAvailable() throws(SecKeychainFailure) {
        do {
            _ = try store()
        } catch {
            throw SecKeychainFailure(error)
        }
    }

    /// Seals every item that may leave this machine (not the ThisDeviceOnly ones) into an
    /// archive under `password`, with scrypt at its standard cost. Items that fail to open
    /// are left out and listed.
    package func exportArchive(password: Data) throws(SecKeychainFailure) -> SecArchiveExport {
        do {
            let export = try store().exportArchive(password: password)
            return SecArchiveExport(archive: export.archive, skipped: export.skipped.map(SecUnreadableItem.init))
        } catch {
            throw SecKeychainFailure(error)
        }
    }

    /// Imports the items of an archive `exportArchive` wrote, all or none. With `dryRun`
    /// the import is rolled back: the counts (or the failure) say what it would do.
    package func importArchive(_ archive: Data, password: Data, policy: SecArchiveImportPolicy,
                               dryRun: Bool = false) throws(SecKeychainFailure) -> SecArchiveImportCounts {
        let corePolicy: ImportPolicy = switch policy {
        case .failOnDuplicate: .failOnDuplicate
        case .keepExisting: .keepExisting
        case .replaceExisting: .replaceExisting
        }
        do {
            let report = try store().importArchive(archive, password: password, policy: corePolicy, dryRun: dryRun)
            return SecArchiveImportCounts(imported: report.imported, replaced: report.replaced, skipped: report.skipped)
        } catch {
            throw SecKeychainFailure(error)
        }
    }

    /// The clear columns of the item a persistent reference (`kSecValuePersistentRef`)
    /// names, for reporting one that failed to open; nil when the reference names no row.
    package func unreadableItem(persistentReference: Data) throws(SecKeychainFailure) -> SecUnreadableItem? {
        guard let reference = PersistentReference(data: persistentReference) else { return nil }
        do {
            return try store().unreadableItem(at: reference).map(SecUnreadableItem.init)
        } catch {
            throw SecKeychainFailure(error)
        }
    }
}

extension SecUnreadableItem {
    init(_ item: UnreadableItem) {
        self.init(description: item.description)
    }
}
