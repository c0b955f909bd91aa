import Foundation
import GRDB
import KeychainCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The agent's progress, beside the keychain (`<name>.keychain-sync`, 0600): how far it has
/// read the server and the keychain's change log, the latest version it knows of each item,
/// which keychain row holds which synced item, and the rosters it verified. The latest versions
/// are also what a removal vouches for (``vouchedRecords(of:)``).
///
/// Nothing here is secret or names an item: item ids are keyed hashes, versions are times and
/// device ids, what a tombstone must carry about a row (its class and primary key) is
/// sealed under a key derived from the group's secrets (``SyncSealing``), and the copy of
/// each item's latest record (``recordCopies(of:)``) is the sealed, signed record as the
/// server stores it. Updates that belong
/// together are one transaction, and every commit is synced (`synchronous=FULL`), so the agent
/// killed at any moment resumes where its last commit left it.
package final class SyncState: Sendable {
    let database: DatabaseQueue

    /// A row of the mirror: the synced item a keychain row holds.
    package struct MirrorEntry: Sendable, Equatable {
        package var rowID: Int64
        package var itemID: Data
        package var sealedIdentity: Data
    }

    package static func url(for files: KeychainFiles) -> URL {
        files.directory.appendingPathComponent("\(files.name).keychain-sync")
    }

    /// The states this process has open, by path: one connection per file and process. A
    /// second one would open and close a descriptor of the file, and closing any descriptor of
    /// a file drops every POSIX lock the process holds on it, the first connection's included:
    /// another process then takes the database for unused and resets its shared memory under it.
    private static let opened = Mutex<[String: SyncState]>([:])

    /// The state of the keychain `files` names, opened (and created) on first use in this
    /// process.
    package static func open(files: KeychainFiles) throws(SyncFailure) -> SyncState {
        let path = url(for: files).path
        return try opened.withLock { (states: inout [String: SyncState]) throws(SyncFailure) -> SyncState in
            if let state = states[path] { return state }
            let state = try SyncState(path: path)
            states[path] = state
            return state
        }
    }

    private init(path: String) throws(SyncFailure) {
        do {
            // Created 0600 without following links, and checked, before SQLite opens it: once
            // per process, as ``open(files:)`` keeps one connection per file.
            guard let fd = try PrivateFile.open(path, flags: O_RDWR | O_CREAT, role: "sync state") else {
                throw SyncFailure.damaged("the sync state \(path) vanished while it was created")
            }
            close(fd)
        } catch let error as SyncFailure {
            throw error
        } catch let error as KeychainError {
            throw .keychain(error)
        } catch {
            throw .damaged("cannot open the sync state \(path)")
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            database = try DatabaseQueue(path: path, configuration: configuration)
            try database.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA secure_delete = ON")
            }
            try Self.migrator.migrate(database)
        } catch {
            throw .damaged("cannot open the sync state \(path): \(error)")
        }
    }

    /// Closes and removes the state files of `files`' keychain (leaving the group, or starting
    /// anew in one).
    package static func remove(files: KeychainFiles) {
        let path = url(for: files).path
        let state = opened.withLock { $0.removeValue(forKey: path) }
        try? state?.database.close()
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE progress (key TEXT PRIMARY KEY NOT NULL, value ANY NOT NULL);
                CREATE TABLE known (item_id BLOB PRIMARY KEY NOT NULL, version BLOB NOT NULL);
                CREATE TABLE mirror (row_id INTEGER PRIMARY KEY NOT NULL, item_id BLOB NOT NULL,
                                     sealed_identity BLOB NOT NULL);
                CREATE INDEX mirror_by_item ON mirror (item_id);
                CREATE TABLE roster (epoch INTEGER PRIMARY KEY NOT NULL, encoded BLOB NOT NULL);
                CREATE TABLE author (device BLOB PRIMARY KEY NOT NULL, counter INTEGER NOT NULL);
                """)
        }
        // Removals vouch for the exact records that stay valid (read from `known`, with the
        // digest of each record as the server holds it), not for counters up to a cutoff.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                DROP TABLE author;
                ALTER TABLE known ADD COLUMN record_digest BLOB;
                """)
        }
        // Forks are detected: the proof of one is kept (one row; the first proof stays) and
        // stops every later pass. Records now name their roster head in a new format, which
        // agents of before this migration rejected and read past: the cursor starts over, so
        // that what they skipped is read once more (records already known are skipped again).
        migrator.registerMigration("fork-detection") { db in
            try db.execute(sql: """
                CREATE TABLE fork (only INTEGER PRIMARY KEY NOT NULL CHECK (only = 1), epoch INTEGER NOT NULL,
                                   evidence TEXT NOT NULL, other_device BLOB NOT NULL, other_name TEXT NOT NULL,
                                   own_signer BLOB NOT NULL, own_signer_name TEXT NOT NULL,
                                   detected_at INTEGER NOT NULL);
                DELETE FROM progress WHERE key = 'cursor';
                """)
        }
        // A copy of the latest sealed record of each known item, so that a member can send
        // again what a server lost (a restored backup, a dropped row).
        migrator.registerMigration("record copies") { db in
            try db.execute(sql: """
                CREATE TABLE record_copy (item_id BLOB PRIMARY KEY NOT NULL, version BLOB NOT NULL,
                                          tombstone INTEGER NOT NULL, record BLOB NOT NULL);
                """)
        }
        // The server's records this member rejected (by item id and version), and its key
        // epoch then: while it holds that epoch, a check of the server's completeness counts
        // them as a difference it cannot heal rather than reading them again, so each is
        // rejected and logged once. A later roster can change the verdict (a record naming a
        // roster this member did not hold yet can prove a fork): then they are read again.
        migrator.registerMigration("rejected records") { db in
            try db.execute(sql: """
                CREATE TABLE rejected (item_id BLOB NOT NULL, version BLOB NOT NULL, epoch INTEGER NOT NULL,
                                       PRIMARY KEY (item_id, version)) WITHOUT ROWID;
                """)
        }
        return migrator
    }

    func run<T>(_ body: (Database) throws -> T) throws(SyncFailure) -> T {
        do {
            return try database.write(body)
        } catch let error as SyncFailure {
            throw error
        } catch {
            throw .damaged("the sync state could not be written: \(error)")
        }
    }

    /// The rows `select` (which ends with `IN`) reads for `keys`, in chunks of 500: SQLite
    /// binds at most 32,766 parameters to a statement. For the lookups of a whole batch.
    func rows(_ select: String, matching keys: [some DatabaseValueConvertible]) throws(SyncFailure) -> [Row] {
        var rows: [Row] = []
        for start in stride(from: 0, to: keys.count, by: 500) {
            let chunk = Array(keys[start..<min(start + 500, keys.count)])
            rows += try run { db in
                try Row.fetchAll(db, sql: "\(select) (\(databaseQuestionMarks(count: chunk.count)))",
                                 arguments: StatementArguments(chunk))
            }
        }
        return rows
    }

    // MARK: - Progress

    package enum Key: String {
        /// The highest server sequence read and dealt with.
        case cursor
        /// The highest keychain log sequence pushed (and removed from the log).
        case logPushed
        /// When a pass last finished, in ms since 1970.
        case lastSync
        /// The last failure, for `sync status`.
        case lastProblem
        /// When this member last collected the server's expired tombstones, in ms since 1970.
        case lastCollection
        /// What the last pass that found the server incomplete did about it, for `sync status`.
        case lastHealing
        /// The server's and this member's digests (``RecordSetDigest``) when a check last left
        /// a difference it could not heal: the same difference again is not worked on again.
        case unhealedDigests
        /// 1 once the copies of records known from before copies were kept were taken from the
        /// server.
        case copiesFilled
        /// 1 once this member, having detected a fork, told the members of the other history
        /// (``SyncSession/publishForkEvidence(server:logger:)``).
        case forkNoticeSent
        /// The notice of the fork this member sends (its item id, version, then the record as
        /// the server stores it), kept to be sent again unchanged.
        case forkNotice
    }

    package func integer(_ key: Key) throws(SyncFailure) -> Int64 {
        try run { db in try Int64.fetchOne(db, sql: "SELECT value FROM progress WHERE key = ?", arguments: [key.rawValue]) ?? 0 }
    }

    package func text(_ key: Key) throws(SyncFailure) -> String? {
        try run { db in try String.fetchOne(db, sql: "SELECT value FROM progress WHERE key = ?", arguments: [key.rawValue]) }
    }

    package func set(_ key: Key, _ value: (any DatabaseValueConvertible)?) throws(SyncFailure) {
        try run { db in try Self.set(db, key, value) }
    }

    static func set(_ db: Database, _ key: Key, _ value: (any DatabaseValueConvertible)?) throws {
        if let value {
            try db.execute(sql: "INSERT OR REPLACE INTO progress (key, value) VALUES (?, ?)", arguments: [key.rawValue, value])
        } else {
            try db.execute(sql: "DELETE FROM progress WHERE key = ?", arguments: [key.rawValue])
        }
    }

    // MARK: - Items

    package func knownVersion(of itemID: Data) throws(SyncFailure) -> RecordVersion? {
        let encoded = try run { db in
            try Data.fetchOne(db, sql: "SELECT version FROM known WHERE item_id = ?", arguments: [itemID])
        }
        guard let encoded else { return nil }
        do {
            return try RecordVersion(encoded: encoded)
        } catch {
            throw .damaged("the sync state holds a malformed version")
        }
    }

    /// The versions known of `itemIDs` (those with none are absent), in one read: a pull
    /// looks up a whole batch at once.
    package func knownVersions(of itemIDs: [Data]) throws(SyncFailure) -> [Data: RecordVersion] {
        var versions: [Data: RecordVersion] = [:]
        for row in try rows("SELECT item_id, version FROM known WHERE item_id IN", matching: itemIDs) {
            do {
                versions[row["item_id"]] = try RecordVersion(encoded: row["version"])
            } catch {
                throw .damaged("the sync state holds a malformed version")
            }
        }
        return versions
    }

    /// The mirror's rows of `rowIDs` (those with none are absent), in one read: a push looks
    /// up a whole batch at once.
    package func mirrors(rowIDs: [Int64]) throws(SyncFailure) -> [Int64: MirrorEntry] {
        var entries: [Int64: MirrorEntry] = [:]
        for row in try rows("SELECT row_id, item_id, sealed_identity FROM mirror WHERE row_id IN", matching: rowIDs) {
            let rowID: Int64 = row["row_id"]
            entries[rowID] = MirrorEntry(rowID: rowID, itemID: row["item_id"], sealedIdentity: row["sealed_identity"])
        }
        return entries
    }

    /// Every row of the mirror: one per synced item this keychain holds.
    package func mirrorEntries() throws(SyncFailure) -> [MirrorEntry] {
        try run { db in
            try Row.fetchAll(db, sql: "SELECT row_id, item_id, sealed_identity FROM mirror ORDER BY row_id").map {
                MirrorEntry(rowID: $0["row_id"], itemID: $0["item_id"], sealedIdentity: $0["sealed_identity"])
            }
        }
    }

    package func mirrorCount() throws(SyncFailure) -> Int {
        try run { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM mirror") ?? 0 }
    }

    /// Records what a push sent (or a pull applied), in one transaction: the item's version,
    /// where it lives now (nil: nowhere, a deletion) and the progress key that moved.
    /// `readBack` are this member's own records read back from the server: their digest as
    /// the server holds it is kept, for a removal to vouch for.
    package func record(_ changes: [ItemChange], readBack: [VouchedRecord] = [], progress: [(Key, Int64)]) throws(SyncFailure) {
        try run { db in
            // Prepared once per transaction, not once per change: a batch runs each of them up
            // to a thousand times.
            let known = try db.cachedStatement(sql: "INSERT OR REPLACE INTO known (item_id, version, record_digest) VALUES (?, ?, ?)")
            let unplace = try db.cachedStatement(sql: "DELETE FROM mirror WHERE item_id = ?")
            let place = try db.cachedStatement(sql: "INSERT OR REPLACE INTO mirror (row_id, item_id, sealed_identity) VALUES (?, ?, ?)")
            let keepCopy = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO record_copy (item_id, version, tombstone, record) VALUES (?, ?, ?, ?)
                """)
            let dropCopy = try db.cachedStatement(sql: "DELETE FROM record_copy WHERE item_id = ?")
            for change in changes {
                let version = change.version.encoded
                try known.execute(arguments: [change.itemID, version, change.digest])
                try unplace.execute(arguments: [change.itemID])
                if let location = change.place {
                    try place.execute(arguments: [location.rowID, change.itemID, location.sealedIdentity])
                }
                if let copy = change.copy {
                    try keepCopy.execute(arguments: [change.itemID, version, copy.isTombstone, copy.record])
                } else {
                    try dropCopy.execute(arguments: [change.itemID])
                }
            }
            if !readBack.isEmpty {
                let vouch = try db.cachedStatement(sql: """
                    UPDATE known SET record_digest = ? WHERE item_id = ? AND version = ? AND record_digest IS NOT ?
                    """)
                for record in readBack {
                    try vouch.execute(arguments: [record.digest, record.itemID, record.version.encoded, record.digest])
                }
            }
            for (key, value) in progress { try Self.set(db, key, value) }
        }
    }

    /// One item's new state, for ``record(_:progress:)``.
    package struct ItemChange: Sendable {
        package var itemID: Data
        package var version: RecordVersion
        /// The keychain row that holds it now, with its sealed identity; nil when deleted.
        package var place: (rowID: Int64, sealedIdentity: Data)?
        /// The digest of the record as the server holds it (SealedRecord.digest); nil for a
        /// record this member sent, until it reads it back from the server.
        package var digest: Data? = nil
        /// The sealed, signed record of this version, kept to send again should the server
        /// lose it; nil when there is none to keep (any older copy is dropped).
        package var copy: (isTombstone: Bool, record: Data)? = nil
    }

    /// The items whose latest version this member knows was written by `device`, with that
    /// version and the digest of the record as read from the server: what a roster removing
    /// `device` vouches for (every other record of it is superseded here, or was never read).
    package func vouchedRecords(of device: DeviceID) throws(SyncFailure) -> [VouchedRecord] {
        // The version's bytes 8..<24 are its device (RecordVersion's layout; substr counts from 1).
        let rows = try run { db in
            try Row.fetchAll(db, sql: """
                SELECT item_id, version, record_digest FROM known
                WHERE substr(version, 9, 16) = ? AND record_digest IS NOT NULL
                """, arguments: [device.bytes])
                .map { (itemID: $0["item_id"] as Data, version: $0["version"] as Data, digest: $0["record_digest"] as Data) }
        }
        var records: [VouchedRecord] = []
        records.reserveCapacity(rows.count)
        for row in rows {
            do {
                records.append(VouchedRecord(itemID: row.itemID, version: try RecordVersion(encoded: row.version),
                                             digest: row.digest))
            } catch {
                throw .damaged("the sync state holds a malformed version")
            }
        }
        return records
    }

    // MARK: - Forks

    /// The fork this member detected, with when (ms since 1970); nil when it holds none.
    package func fork() throws(SyncFailure) -> (fork: SyncFork, detectedAt: Int64)? {
        let row = try run { db in try Row.fetchOne(db, sql: "SELECT * FROM fork") }
        guard let row else { return nil }
        guard let evidence = SyncFork.Evidence(rawValue: row["evidence"]),
              let other = DeviceID(hex: Hex.string(row["other_device"] as Data)),
              let signer = DeviceID(hex: Hex.string(row["own_signer"] as Data))
        else { throw .damaged("the sync state holds a malformed fork record") }
        let fork = SyncFork(epoch: UInt64(bitPattern: row["epoch"]), evidence: evidence, otherDevice: other,
                            otherName: row["other_name"], ownSigner: signer, ownSignerName: row["own_signer_name"])
        return (fork, row["detected_at"])
    }

    /// The notice of a fork this member made (``SyncSession/publishForkEvidence(server:logger:)``),
    /// nil until it made one.
    func forkNotice() throws(SyncFailure) -> SealedRecord? {
        let kept = try run { db in
            try Data.fetchOne(db, sql: "SELECT value FROM progress WHERE key = ?", arguments: [Key.forkNotice.rawValue])
        }
        guard let kept else { return nil }
        let idEnd = SealedRecord.itemIDCount, versionEnd = idEnd + RecordVersion.encodedCount
        guard kept.count > versionEnd,
              let notice = try? SealedRecord(encoded: kept.suffix(from: kept.startIndex + versionEnd),
                                             serverItemID: kept.subdata(in: kept.startIndex..<kept.startIndex + idEnd),
                                             serverVersion: kept.subdata(in: kept.startIndex + idEnd..<kept.startIndex + versionEnd))
        else { throw .damaged("the sync state holds a malformed notice of a fork") }
        return notice
    }

    /// Keeps `notice`, the record that tells the other history of a fork.
    func keepForkNotice(_ notice: SealedRecord) throws(SyncFailure) {
        try set(.forkNotice, notice.itemID + notice.version.encoded + notice.encoded)
    }

    /// Keeps `fork` unless one is kept already (the first proof stays).
    package func saveFork(_ fork: SyncFork, at time: Int64) throws(SyncFailure) {
        try run { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO fork (only, epoch, evidence, other_device, other_name, own_signer, own_signer_name,
                                            detected_at)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [Int64(bitPattern: fork.epoch), fork.evidence.rawValue, fork.otherDevice.bytes,
                                 fork.otherName, fork.ownSigner.bytes, fork.ownSignerName, time])
        }
    }

    // MARK: - Rosters

    package func rosters() throws(SyncFailure) -> [Data] {
        try run { db in try Data.fetchAll(db, sql: "SELECT encoded FROM roster ORDER BY epoch") }
    }

    package func saveRoster(_ roster: Roster) throws(SyncFailure) {
        try run { db in
            try db.execute(sql: "INSERT OR REPLACE INTO roster (epoch, encoded) VALUES (?, ?)",
                           arguments: [Int64(bitPattern: roster.epoch), roster.encoded])
        }
    }
}
