import Crypto
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// One keychain: an encrypted SQLite database (WAL mode, through GRDB) and its keys.
///
/// Safe to use from any thread: each process has one connection to a keychain, which runs
/// one operation at a time (GRDB's queue costs a fraction of its reader pool per access, and
/// operations are short). Several processes may use the same keychain at once: WAL mode lets
/// their readers and writer proceed together.
/// Every operation is atomic (one statement, or one transaction where it needs several), so
/// a change is applied whole or not at all, and the database's UNIQUE constraint decides
/// which of two racing adds wins.
package final class KeychainStore: Sendable {
    package let files: KeychainFiles
    let database: DatabaseQueue
    let classKeys: ClassKeyAvailability
    let hasher: IndexHasher
    let commits: GroupCommit
    private let checkpointer: WALCheckpointer
    /// The protection classes whose rows of an older format this store has
    /// indexed (see ``indexRowsOfOlderFormats()``): each is tried once.
    let lookupIndexedProtections = Mutex<Set<String>>([])

    private init(files: KeychainFiles, database: DatabaseQueue, checkpointer: WALCheckpointer, opened: OpenedKeybag) {
        self.files = files
        self.database = database
        self.checkpointer = checkpointer
        self.commits = GroupCommit(database: database, patience: Self.busyTimeout)
        self.classKeys = ClassKeyAvailability(
            keychainID: opened.keychainID, alwaysKeys: opened.alwaysKeys, firstUnlock: opened.firstUnlock)
        self.hasher = IndexHasher(key: opened.indexKey)
        if let created = opened.created {
            classKeys.publish(created)
        }
    }

    /// Closes the connections; the store cannot be used after.
    ///
    /// When no other process is reading, it first copies the log into the database and
    /// truncates it, without waiting for anyone: SQLite's own checkpoint at close leaves the
    /// copied frames in the kept log file, and so the page versions they hold; and a log
    /// whose tail was lost would then lay those old pages over the newer database file.
    /// An empty log (a process that only read, after writers that closed cleanly) has
    /// nothing to copy: the checkpoint is skipped.
    func close() {
        checkpointer.close()
        if !WALCheckpointer.logIsEmpty(of: files.database.path) {
            database.writeWithoutTransaction { db in
                sqlite3_busy_timeout(db.sqliteConnection, 0)
                _ = sqlite3_wal_checkpoint_v2(db.sqliteConnection, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
            }
        }
        try? database.close()
    }

    /// Whether the keychain's database exists and holds something.
    package static func exists(_ files: KeychainFiles) -> Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: files.database.path)[.size] as? Int) ?? nil
        return (size ?? 0) > 0
    }

    /// Opens a keychain, creating its folder, database and keys when they do not exist.
    /// Failures are errSecNotAvailable (or errSecWrongSecVersion) and are logged with why.
    ///
    /// With `creating`, the keychain must not exist yet (else errSecDuplicateKeychain): of
    /// several processes creating it at once, exactly one does.
    ///
    /// A new connection every time: programs obtain stores through ``shared(_:create:)``,
    /// which opens each database once per process. Tests open a second one to play
    /// another process.
    static func open(_ files: KeychainFiles) throws(KeychainError) -> KeychainStore {
        try open(files, creating: nil)
    }

    /// - Parameter mustExist: a database that has no keybag yet (its creation was cut
    ///   short) is errSecNoSuchKeychain rather than made a keychain without a password.
    static func open(_ files: KeychainFiles, creating: KeychainCreation?,
                     mustExist: Bool = false) throws(KeychainError) -> KeychainStore {
        do throws(KeychainError) {
            try files.prepare()
            let store = try files.whileOpening { () throws(KeychainError) -> KeychainStore in
                var configuration = Configuration()
                configuration.busyMode = BusyWait(timeout: Self.busyTimeout).mode
                configuration.label = "keychain"
                let checkpointer = WALCheckpointer(path: files.database.path)
                configuration.prepareDatabase { db in checkpointer.install(on: db) }
                let database: DatabaseQueue
                do {
                    database = try DatabaseQueue(path: files.database.path, configuration: configuration)
                    // WAL mode set here rather than by GRDB's `journalMode`, which also sets
                    // `synchronous=NORMAL` and, finding the log file empty (as every clean
                    // close and every scrub leaves it), writes and drops a table to make it
                    // non-empty: two syncs in every process that opens the keychain.
                    // Acknowledged means durable: each commit syncs the log (FULL), not only
                    // each checkpoint, so a power cut after a call returned success loses
                    // nothing, also while another process holds the keychain open. Deleted
                    // means gone: freed space is zeroed in the database file; the log's older
                    // page versions are emptied by ``GroupCommit/scrub(_:patience:databasePath:restartingTheLog:)``. Set explicitly:
                    // SQLite's compiled-in defaults differ between builds.
                    try database.writeWithoutTransaction { db in
                        guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                            throw KeychainError.notAvailable("the keychain database cannot use a write-ahead log")
                        }
                        try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA secure_delete = ON")
                    }
                } catch {
                    throw KeychainError.from(error, during: "open")
                }
                let format = try oneStatement(database, during: "open", KeychainSchema.recordedFormat)
                if let format, !KeychainSchema.readableFormats.contains(format) {
                    throw KeychainError.wrongVersion(format)
                }
                // At the current format there is nothing to migrate, and the migrator's own
                // checks (its table, the applied list) cost every fresh process.
                if format != KeychainSchema.formatVersion {
                    do {
                        try KeychainSchema.migrator.migrate(database)
                        // Every migration is applied now, whatever the list said before.
                        try database.write { db in
                            try db.execute(sql: "UPDATE meta SET value = \(KeychainSchema.formatVersion) WHERE key = 'format'")
                        }
                    } catch {
                        throw KeychainError.from(error, during: "open")
                    }
                }
                // Read first: a whole keychain needs no write, and a find then takes no
                // write lock; only a new or incomplete keybag is loaded again, writing.
                let read = creating != nil ? nil : try Self.read(database, during: "open") { db in
                    try OpenedKeybag.load(db, files: files, mustExist: mustExist, writing: false)
                }
                let written = try read == nil ? write(database, during: "open") { db in
                    try OpenedKeybag.load(db, files: files, creating: creating, mustExist: mustExist, writing: true)
                } : nil
                guard let opened = read ?? written else {
                    throw KeychainError.notAvailable("the keybag could not be loaded")
                }
                return KeychainStore(files: files, database: database, checkpointer: checkpointer, opened: opened)
            }
            WALCheckpointer.truncateLongLog(of: files.database.path)
            return store
        } catch .duplicateKeychain {
            throw .duplicateKeychain
        } catch .noSuchKeychain {
            throw .noSuchKeychain
        } catch {
            keychainLogger.error(
                "cannot open keychain",
                metadata: ["path": "\(files.database.path)", "reason": "\(error)"])
            switch error {
            case .notAvailable, .wrongVersion: throw error
            default: throw .notAvailable(error.description)
            }
        }
    }

    // MARK: - Operations

    /// Adds an item (defaults applied, duplicates and locked classes refused) and returns what
    /// `returning` asks for.
    package func add(_ item: NewItem, by caller: CallerIdentity, returning: ReturnOptions = []) throws(KeychainError) -> FoundItem {
        if item.itemClass == .identity {
            throw .unimplemented("identities are formed from a stored certificate and key, which is not supported")
        }
        let schema = item.itemClass.schema
        var attributes: [String: AttributeValue] = [:]
        // Room for the five attributes the keychain sets below.
        attributes.reserveCapacity(item.attributes.count + 5)
        for (code, value) in item.attributes {
            let attribute = try schema.attribute(code)
            if attribute.kind == .ignored || attribute.kind == .synchronizable { continue }
            _ = try attribute.canonicalBytes(of: value)
            attributes[code] = value
        }
        if case .string(let group)? = attributes[ItemSchema.accessGroup.code] {
            guard caller.holds(group) else { throw .missingEntitlement(group: group) }
        } else {
            guard let group = caller.defaultGroup else { throw .missingEntitlement(group: "") }
            attributes[ItemSchema.accessGroup.code] = .string(group)
        }
        if attributes[ItemSchema.accessible.code] == nil {
            attributes[ItemSchema.accessible.code] = .string(Accessibility.defaultValue(for: item.itemClass).rawValue)
        }
        attributes[ItemSchema.synchronizable.code] = .number(item.isSynchronizable ? 1 : 0)
        let now = Date()
        attributes[ItemSchema.creationDate.code] = .date(now)
        attributes[ItemSchema.modificationDate.code] = .date(now)

        let record = ItemRecord(itemClass: item.itemClass, attributes: attributes)
        let (row, rowID) = try withCurrentClassKeys { () throws(KeychainError) in
            let row = try newRow(record, secret: item.data ?? Data())
            return (row, try write(during: "add", supersedes: false) { db in
                try self.requirePassword(for: row.accessibility, in: db)
                return try row.insert(into: db)
            })
        }
        return FoundItem(
            record: returning.isDisjoint(with: [.attributes, .reference]) ? nil : record,
            data: returning.contains(.data) ? (item.data ?? Data()) : nil,
            persistentReference: row.reference(rowID: rowID))
    }

    /// Finds the items a query matches, in insertion order, up to its limit.
    /// No match is errSecItemNotFound.
    package func find(_ query: ItemQuery, by caller: CallerIdentity) throws(KeychainError) -> [FoundItem] {
        try withCurrentClassKeys { () throws(KeychainError) in try findOnce(query, by: caller) }
    }

    private func findOnce(_ query: ItemQuery, by caller: CallerIdentity) throws(KeychainError) -> [FoundItem] {
        let plan = try MatchPlan(query: query, caller: caller, hasher: hasher)
        let wantsRecord = !query.returning.isDisjoint(with: [.attributes, .reference])
        let wantsData = query.returning.contains(.data)
        // Whether the search met a key or certificate not indexed yet: then, answered or
        // failed, it indexes what it can for the next searches.
        var metNotIndexed = false
        defer { if metNotIndexed { indexRowsOfOlderFormats() } }
        let found = try Self.oneStatement(database, during: "search") { db in
            var found: [FoundItem] = []
            try plan.forEachRow(in: db, withSecret: wantsData) { row in
                var record: ItemRecord?
                if !row.columns.isIndexed || !row.attributesIndexed { metNotIndexed = true }
                let mustOpen = plan.mustOpen(row)
                if !wantsRecord && !wantsData && !mustOpen {
                    // Nothing to open, but a locked item still fails the search with
                    // errSecInteractionNotAllowed.
                    _ = try self.classKey(of: row)
                }
                if wantsRecord || mustOpen {
                    let opened = try self.open(row)
                    guard try plan.residualMatches(opened, of: row) else { return true }
                    record = opened
                }
                // A secret comes with its access control's flags, which the caller must honour
                // (SecItem asks for the user's presence).
                let secret = wantsData ? try self.openGuardedSecret(row) : nil
                found.append(FoundItem(
                    record: wantsRecord ? record : nil,
                    data: secret?.data,
                    persistentReference: RowReference.reference(
                        itemClass: query.itemClass, rowID: row.id, nonce: row.nonce),
                    accessControlFlags: secret?.guardFlags))
                if case .count(let limit) = query.limit { return found.count < limit }
                return true
            }
            return found
        }
        guard !found.isEmpty else { throw .itemNotFound }
        return found
    }

    /// Applies `changes` to every item the query matches, in one transaction: a collision
    /// with another item (errSecDuplicateItem) or any failure leaves every item as it was.
    package func update(_ query: ItemQuery, with changes: ItemChanges, by caller: CallerIdentity) throws(KeychainError) {
        try withCurrentClassKeys { () throws(KeychainError) in try updateOnce(query, with: changes, by: caller) }
    }

    private func updateOnce(_ query: ItemQuery, with changes: ItemChanges, by caller: CallerIdentity) throws(KeychainError) {
        let plan = try MatchPlan(query: query, caller: caller, hasher: hasher)
        let schema = query.itemClass.schema
        var newValues: [String: AttributeValue] = [:]
        for (code, value) in changes.attributes {
            let attribute = try schema.attribute(code)
            let canonical = try attribute.canonicalBytes(of: value)
            switch attribute.kind {
            case .ignored: continue
            case .synchronizable:
                newValues[code] = .number(try attribute.integer(of: value) == 0 ? 0 : 1)
            case .accessGroup:
                let group = String(decoding: canonical, as: UTF8.self)
                guard caller.holds(group) else { throw .missingEntitlement(group: group) }
                newValues[code] = value
            case .date where code == ItemSchema.creationDate.code || code == ItemSchema.modificationDate.code:
                continue // the keychain keeps cdat and makes mdat strictly newer
            default:
                newValues[code] = value
            }
        }
        let now = Date()
        try write(during: "update", supersedes: true) { db in
            var matches: [(StoredRow, ItemRecord)] = []
            try plan.forEachRow(in: db, withSecret: true) { row in
                let record = try self.open(row)
                if try plan.residualMatches(record, of: row) { matches.append((row, record)) }
                return true
            }
            guard !matches.isEmpty else { throw KeychainError.itemNotFound }
            for (row, record) in matches {
                var updated = record
                updated.attributes.merge(newValues) { _, new in new }
                let previous = record.modificationDate?.timeIntervalSinceReferenceDate ?? 0
                updated.attributes[ItemSchema.modificationDate.code] =
                    .date(Date(timeIntervalSinceReferenceDate: max(now.timeIntervalSinceReferenceDate, previous.nextUp)))
                // With no attribute changed the columns are the row's own, which its sealed
                // parts just proved: no need to hash the identity and account again. A row
                // not indexed yet gets its lookup columns now.
                let columns = newValues.isEmpty && row.columns.isIndexed
                    ? row.columns : try StoredColumns(record: updated, hasher: self.hasher)
                let (key, epoch) = try self.classKeys.cipherAndEpoch(for: updated.accessibility)
                try KeybagTable.requireEpoch(epoch, in: db)
                if updated.accessibility != record.accessibility {
                    try self.requirePassword(for: updated.accessibility, in: db)
                }
                let secret = try changes.secret(for: record, becoming: updated) ?? self.openSecret(row)
                let sealed = try self.seal(updated, secret: secret, nonce: row.nonce, columns: columns, key: key,
                                           random: RandomBytes.draw(2 * 12)[...])
                if columns == row.columns {
                    // Only sealed parts change (the data, or attributes without a column):
                    // leaving the indexed columns out of the SET spares every index write,
                    // and the pairs are written only when the generic data changed them.
                    // Likewise the indexed attributes, when one of them changed or the row
                    // (of an older format) has none yet; such a row gets its pairs too, as
                    // `indexed` says the row is indexed in every way.
                    let newEntries = !row.attributesIndexed
                        || newValues.keys.contains { AttributeIndexTable.attributeCodes.contains($0) }
                    let newPairs = (newValues["gena"] != nil && LookupPairTable.set(of: updated) != LookupPairTable.set(of: record))
                        || (!row.attributesIndexed && updated.itemClass == .genericPassword)
                    let sql = switch (newPairs, newEntries) {
                    case (false, false): Self.updateSealedSQL
                    case (true, false): Self.updateSealedAndPairedSQL
                    case (false, true): Self.updateSealedAndIndexedSQL
                    case (true, true): Self.updateSealedPairedAndIndexedSQL
                    }
                    try DirectStatement(db, sql: sql, values: [
                        .blob(sealed.attributes), .blob(sealed.secret), .integer(row.id),
                    ]).execute()
                    if newPairs {
                        try LookupPairTable.entries.write(LookupPairTable.hashes(of: updated, hasher: self.hasher), forRow: row.id,
                                                  replacing: true, in: db)
                    }
                    if newEntries {
                        try AttributeIndexTable.entries.write(AttributeIndexTable.hashes(of: updated, hasher: self.hasher),
                                                      forRow: row.id, replacing: true, in: db)
                    }
                    continue
                }
                try NewRow(itemClass: updated.itemClass, accessibility: updated.accessibility, nonce: row.nonce, columns: columns,
                           sealedAttributes: sealed.attributes, sealedSecret: sealed.secret, keyEpoch: epoch,
                           lookupPairs: LookupPairTable.hashes(of: updated, hasher: self.hasher),
                           attributeHashes: AttributeIndexTable.hashes(of: updated, hasher: self.hasher))
                    .overwrite(rowID: row.id, in: db)
            }
        }
    }

    private static let updateSealedSQL = "UPDATE item SET attributes = ?, secret = ? WHERE id = ?"
    private static let updateSealedAndPairedSQL = "UPDATE item SET attributes = ?, secret = ?, paired = 1 WHERE id = ?"
    private static let updateSealedAndIndexedSQL = "UPDATE item SET attributes = ?, secret = ?, indexed = 1 WHERE id = ?"
    private static let updateSealedPairedAndIndexedSQL =
        "UPDATE item SET attributes = ?, secret = ?, paired = 1, indexed = 1 WHERE id = ?"

    /// Deletes every item the query matches (none: errSecItemNotFound), all or none of them. While a class is
    /// locked, a match in it fails the whole delete with errSecInteractionNotAllowed.
    package func delete(_ query: ItemQuery, by caller: CallerIdentity) throws(KeychainError) {
        let plan = try MatchPlan(query: query, caller: caller, hasher: hasher)
        if plan.columnsDecide && classKeys.isUnlocked && classKeys.wasUnlockedSinceBoot {
            // The columns decide alone: one statement, which opens nothing.
            let deleted = try write(during: "delete", supersedes: true) { db in
                try plan.deleteMatches(in: db)
            }
            guard deleted > 0 else { throw .itemNotFound }
            return
        }
        try withCurrentClassKeys { () throws(KeychainError) in try deleteOpening([plan]) }
    }

    /// Deletes every item any of the queries matches, in one transaction: all of them or,
    /// on any failure, none. What the items of several classes that make one thing (the
    /// certificate and key of an identity) or a list of items need. No match at all is
    /// errSecItemNotFound.
    package func delete(every queries: [ItemQuery], by caller: CallerIdentity) throws(KeychainError) {
        var plans: [MatchPlan] = []
        for query in queries { plans.append(try MatchPlan(query: query, caller: caller, hasher: hasher)) }
        try withCurrentClassKeys { () throws(KeychainError) in try deleteOpening(plans) }
    }

    /// Deletes what the plans match, opening the rows where a plan or a lock needs it.
    private func deleteOpening(_ plans: [MatchPlan]) throws(KeychainError) {
        try write(during: "delete", supersedes: true) { db in
            var ids: [Int64] = []
            for plan in plans {
                try plan.forEachRow(in: db, withSecret: false) { row in
                    if !plan.mustOpen(row) {
                        // A locked item fails the delete; one bound to another machine, or
                        // damaged, can still be deleted by its columns.
                        do {
                            _ = try self.classKey(of: row)
                        } catch let error as KeychainError where error == .interactionNotAllowed {
                            throw error
                        } catch {}
                        ids.append(row.id)
                    } else if try plan.residualMatches(self.open(row), of: row) {
                        ids.append(row.id)
                    }
                    return true
                }
            }
            guard !ids.isEmpty else { throw KeychainError.itemNotFound }
            // Two plans may match one row: delete it once.
            var deleted = Set<Int64>()
            for id in ids where deleted.insert(id).inserted {
                try DirectStatement(db, sql: "DELETE FROM item WHERE id = ?", values: [.integer(id)]).execute()
            }
        }
    }

    // MARK: - Sealing

    /// Seals a record's attributes and secret, each under one of the two 12-byte AES-GCM
    /// nonces in `random`.
    func seal(_ record: ItemRecord, secret: Data, nonce: Data, columns: StoredColumns,
              key: KeyedAESGCM, random: ArraySlice<UInt8>) throws(KeychainError) -> (attributes: Data, secret: Data) {
        let sealed = try ItemSealing.seal(record: record.attributes, secret: secret,
                                          columns: columns, rowNonce: nonce, key: key, random: random)
        return (sealed.attributes, sealed.secret ?? Data())
    }

    /// Opens a row's attributes; a damaged or moved blob is errSecDecode.
    func open(_ row: StoredRow) throws(KeychainError) -> ItemRecord {
        var plaintext = try ItemSealing.open(row.sealedAttributes, part: .attributes, columns: row.columns,
                                             rowNonce: row.nonce, key: try classKey(of: row))
        defer { plaintext.zeroize() }
        guard let itemClass = ItemClass.allCases.first(where: { $0.storageCode == row.columns.classCode }) else {
            throw .decode
        }
        return ItemRecord(itemClass: itemClass, attributes: try RecordCodec.decode(plaintext))
    }

    /// Opens a row's secret; a damaged or moved blob is errSecDecode.
    func openSecret(_ row: StoredRow) throws(KeychainError) -> Data {
        try openGuardedSecret(row).data
    }

    /// Opens a row's secret with the flags of its access control, nil for a secret without one.
    func openGuardedSecret(_ row: StoredRow) throws(KeychainError) -> (data: Data, guardFlags: Int64?) {
        guard let sealed = row.sealedSecret else { throw .decode }
        return try ItemSealing.openSecret(sealed, columns: row.columns, rowNonce: row.nonce, key: try classKey(of: row))
    }

    func classKey(of row: StoredRow) throws(KeychainError) -> KeyedAESGCM {
        guard let accessibility = Accessibility(rawValue: row.columns.protection) else { throw .decode }
        return try classKey(for: accessibility)
    }

    /// The key of a protection class, or errSecInteractionNotAllowed while it is locked.
    ///
    /// A keychain without a password unlocks itself at its first use since boot, as a login
    /// keychain does at login; once locked, it stays locked until unlocked.
    func classKey(for accessibility: Accessibility) throws(KeychainError) -> KeyedAESGCM {
        try classKeys.cipherAndEpoch(for: accessibility).cipher
    }

    // MARK: - Transactions

    /// How long a call waits for other processes' transactions (and a scrub for their
    /// reads) before it gives up.
    static let busyTimeout: TimeInterval = 10

    /// Runs `change` in a durable transaction of its own or shared with other threads' (see
    /// ``GroupCommit``). With `supersedes`, no file keeps the bytes it deleted or
    /// overwrote once this returns.
    func write<T>(during operation: String, supersedes: Bool,
                  _ change: (Database) throws -> T) throws(KeychainError) -> T {
        do { return try commits.perform(supersedes: supersedes, change) } catch is StaleClassKeys {
            // Told apart from a lock by ``withCurrentClassKeys(_:)``, which compares epochs.
            throw .interactionNotAllowed
        } catch { throw .from(error, during: operation) }
    }

    /// Runs `body` again after another process replaced the class A and C keys (a password
    /// change) while this one held the old ones: a write sealed under them failed its epoch
    /// check, or a read failed to open an item it should open. It reads the keys from the
    /// cache again each time, for at most ``newKeysWait``: the changing process publishes its
    /// new keys just after its commit. Keys still of an old epoch after that are retired
    /// keys (an unlock that lives in this process only): the classes are locked here.
    ///
    /// The wait is timed from the moment this process finds its keys retired, and again from
    /// each newer epoch it reads, not from the call's start: a write that queued behind the
    /// change's transaction (which runs the password KDF) has spent its time waiting for the
    /// lock, not for the publishing, and must still get its turn to read the new keys.
    func withCurrentClassKeys<T>(_ body: () throws(KeychainError) -> T) throws(KeychainError) -> T {
        var deadline: Date?
        var retired: [UInt64] = []
        while true {
            do {
                return try body()
            } catch {
                guard try holdsRetiredKeys(after: error) else { throw error }
                let held = classKeys.heldEpochs
                if deadline == nil || held != retired {
                    deadline = Date(timeIntervalSinceNow: Self.newKeysWait)
                    retired = held
                }
                guard let deadline, Date() < deadline else { throw .interactionNotAllowed }
                classKeys.forgetLocalCopies()
                usleep(2_000)
            }
        }
    }

    /// How long a call waits for a password change's new keys to reach the cache. The
    /// changing process publishes them right after its commit, but on a loaded machine it
    /// may not run again for a while (half a second was seen to be too short under a full
    /// test run); only a process whose keys were retired for good (the changing process
    /// died between its commit and its publishing) pays the whole wait.
    static let newKeysWait: TimeInterval = 2

    /// Whether `error` comes from class keys a password change retired.
    private func holdsRetiredKeys(after error: KeychainError) throws(KeychainError) -> Bool {
        switch error {
        case .decode, .interactionNotAllowed:
            let held = classKeys.heldEpochs
            guard !held.isEmpty else { return false }
            let current = try Self.oneStatement(database, during: "read the key epoch") { db in try KeybagTable.keyEpoch(db) }
            return held.contains { $0 != current }
        default: return false
        }
    }

    /// For a closure that runs one statement: SQLite makes each statement atomic and reads
    /// it from one snapshot, so an explicit transaction would only add two statements.
    static func oneStatement<T>(_ database: DatabaseQueue, during operation: String,
                                        _ body: (Database) throws -> T) throws(KeychainError) -> T {
        do { return try database.inDatabase(body) } catch { throw .from(error, during: operation) }
    }

    /// For a closure of several reads: one deferred, read-only transaction, so that they
    /// see one state of the database.
    static func read<T>(_ database: DatabaseQueue, during operation: String,
                        _ body: (Database) throws -> T) throws(KeychainError) -> T {
        do { return try database.read(body) } catch { throw .from(error, during: operation) }
    }

    /// For a closure of several statements: one IMMEDIATE transaction, all or nothing.
    static func write<T>(_ database: DatabaseQueue, during operation: String,
                                 _ body: (Database) throws -> T) throws(KeychainError) -> T {
        do { return try database.write(body) } catch { throw .from(error, during: operation) }
    }
}
