import Crypto
import Foundation
import GRDB

/// A keychain's label: the name a user gave it for display (the Secret Service shows it as
/// its collection's Label), apart from its file name. Kept in the `meta` row `label`, sealed
/// like everything at rest: AES-GCM under a key derived from the index key (so it reads while
/// the keychain is locked, as the file name would), the row's name as associated data.
extension KeychainStore {
    /// The label set with ``setLabel(_:)``, or nil when none was.
    package func label() throws(KeychainError) -> String? {
        let sealed = try Self.oneStatement(database, during: "read the keychain's label") { db in
            try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'label'")
        }
        guard let sealed else { return nil }
        let opened = try RecordSealer.open(sealed, with: labelKey, binding: Self.labelContext)
        guard let label = String(data: opened, encoding: .utf8) else { throw .decode }
        return label
    }

    /// Sets the label (nil: none); the label is at most ``labelLimit`` bytes of UTF-8.
    package func setLabel(_ label: String?) throws(KeychainError) {
        guard let label else {
            try write(during: "remove the keychain's label", supersedes: true) { db in
                try db.execute(sql: "DELETE FROM meta WHERE key = 'label'")
            }
            return
        }
        guard label.utf8.count <= Self.labelLimit else {
            throw .param("a keychain's label is at most \(Self.labelLimit) bytes")
        }
        let sealed = try RecordSealer.seal(Data(label.utf8), with: labelKey, binding: Self.labelContext)
        try write(during: "set the keychain's label", supersedes: true) { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('label', ?)", arguments: [sealed])
        }
    }

    /// The longest label, in bytes.
    package static let labelLimit = 4096

    private static let labelContext = Data("keychain label".utf8)

    /// HMAC of the index key over a name no attribute has: a key of its own for the label.
    private var labelKey: SymmetricKey { SymmetricKey(data: hasher.hash("keychain-label-key", Data())) }
}
