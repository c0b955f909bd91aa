import Foundation
import KeychainCore
import KeychainSync
import Logging
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Removing a member keeps its promises against a removed device that still holds the old
/// epoch's key and its signing key, with a real PostgreSQL and keychainctl as users run it
/// (contract: "a server that alters, reorders, replays or withholds records cannot make a
/// member accept a wrong secret"; a removal roster vouches for the removed device's records
/// that stay valid).
@Suite("Removing sync members", .serialized)
struct SyncRemovalTests {
    static let logger = Logger(label: "keychain-sync-removal-tests")

    /// Requirement "a removed member cannot inject a wrong secret": after its removal, the
    /// removed device signs a record with a low counter, a time far ahead and an item it knew,
    /// under the old epoch's key, and inserts it on the server; every member rejects it and
    /// keeps the removed device's real record, which a member that pulled only after the
    /// removal still accepts (vouched).
    @Test func forgedRecordOfRemovedMemberIsRejectedByEveryMember() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        try c.store(service: "from-c", account: "x", password: "real-secret-of-c")
        #expect(try c.run("sync", "run", "--once").status == 0)
        // The remover reads c's record; b reads nothing until after the removal.
        #expect(try a.run("sync", "run", "--once").status == 0)
        #expect(try a.password(service: "from-c", account: "x") == "real-secret-of-c")

        let removal = try a.run("sync", "remove", "c")
        #expect(removal.status == 0, "\(removal.errors)")
        try insertForgedRecord(by: c, service: "from-c", account: "x", secret: "forged-secret", server: server)

        for member in [a, b] {
            let pass = try member.run("sync", "run", "--once")
            #expect(pass.status == 0, "\(pass.errors)")
            #expect(pass.errors.contains("rejected a record"), "\(member.name) logs the rejection")
            #expect(!pass.errors.contains("forged-secret"))
            #expect(try member.password(service: "from-c", account: "x") == "real-secret-of-c", "on \(member.name)")
        }
    }

    /// Requirement "the pull learns of a removal before applying records appended after it":
    /// a member whose view of the group predates the removal reads a batch holding the forged
    /// record; it refreshes the membership before applying the batch, so it rejects it.
    @Test func memberLearningTheRemovalMidPullRejectsLaterRecords() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        try c.store(service: "from-c", account: "x", password: "real-secret-of-c")
        for member in [c, a, b] { #expect(try member.run("sync", "run", "--once").status == 0) }
        #expect(try b.password(service: "from-c", account: "x") == "real-secret-of-c")

        // b's session as it stands before the removal: c is a member in its chain.
        let store = try KeychainStore.shared(b.files, create: false)
        var session = try SyncSession.load(files: b.files, store: store)
        #expect(session.chain.current.member(try c.deviceID()) != nil)
        let epochBefore = session.chain.current.epoch

        #expect(try a.run("sync", "remove", "c").status == 0)
        try insertForgedRecord(by: c, service: "from-c", account: "x", secret: "forged-secret", server: server)

        let connection = try await SyncServer.connect(SyncServerAddress(parsing: server.tcpAddress()), logger: Self.logger,
                                                      operationTimeout: SyncServerFixture.operationTimeout)
        let report: SyncSession.PullReport
        do {
            report = try await session.pull(server: connection, logger: Self.logger)
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
        #expect(report.rejected == 1 && report.applied == 0)
        #expect(session.chain.current.epoch == epochBefore + 1)
        #expect(try b.password(service: "from-c", account: "x") == "real-secret-of-c")
    }

    /// Requirement "the remover has seen every record of the removed device before it
    /// publishes": a record the device appends between the remover's pull and its publication
    /// makes the server refuse the roster; the remover reads again, vouches for it and
    /// publishes, and a member that pulls afterwards accepts that record.
    @Test func recordAppendedBeforePublicationIsReadAndVouched() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        for member in [a, b, c] { #expect(try member.run("sync", "run", "--once").status == 0) }

        let attempts = Counter()
        let store = try KeychainStore.shared(a.files, create: false)
        let membership = SyncMembership(files: a.files, store: store, logger: Self.logger) {
            // Only before the first attempt: c writes and sends a record.
            guard attempts.increment() == 1 else { return }
            do {
                try c.store(service: "late", account: "x", password: "late-secret-of-c")
                let pass = try c.run("sync", "run", "--once")
                if pass.status != 0 { Issue.record("c's pass failed: \(pass.errors)") }
            } catch {
                Issue.record("c could not write: \(error)")
            }
        }
        let removed = try await membership.remove(device: "c")
        #expect(removed.name == "c")
        #expect(attempts.value == 2, "the first publication is refused, the second goes through")

        let pass = try b.run("sync", "run", "--once")
        #expect(pass.status == 0, "\(pass.errors)")
        #expect(try b.password(service: "late", account: "x") == "late-secret-of-c")
        #expect(!pass.errors.contains("rejected a record"))
    }

    /// Requirement "`sync remove` beside a running agent waits for at most the pass under
    /// way": between passes the agent holds nothing, so the removal starts at once, however
    /// often the agent passes (here every second), rather than minutes later.
    @Test func removalBesideARunningAgentDoesNotWaitForIt() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        try a.startAgent()
        defer { a.stopAgent() }
        try a.store(service: "from-a", account: "x", password: "sent-by-the-agent")
        try eventually(60, "a's agent sent its change") { try a.pendingLocalChanges() == 0 }
        // The lock a removal takes is free while the agent waits for its next wake-up.
        let lockPath = a.keychainFolder.appendingPathComponent("login.keychain-sync-pass-lock").path
        let lock = open(lockPath, O_RDWR)
        #expect(lock >= 0)
        defer { close(lock) }
        try eventually(30, "the pass lock is free between the agent's passes") {
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { return false }
            flock(lock, LOCK_UN)
            return true
        }
        let started = Date()
        let removal = try a.run("sync", "remove", "c")
        #expect(removal.status == 0, "\(removal.errors)")
        #expect(Date().timeIntervalSince(started) < 60, "sync remove waited \(Int(Date().timeIntervalSince(started))) s for the agent")
        #expect(a.agent?.poll() == nil, "a's agent still runs")
    }

    /// Requirement "`sync leave` vouches for the leaving device's own records": what it wrote,
    /// also a change it had not sent yet when it left, reaches the members that pull after it
    /// left; it reads nothing written after.
    @Test func leavingMemberSendsAndVouchesForItsOwnRecords() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try b.store(service: "sent", account: "x", password: "sent-before-leaving")
        #expect(try b.run("sync", "run", "--once").status == 0)
        try b.store(service: "unsent", account: "x", password: "changed-just-before-leaving")

        let leave = try b.run("sync", "leave")
        #expect(leave.status == 0, "\(leave.errors)")
        let pass = try a.run("sync", "run", "--once")
        #expect(pass.status == 0, "\(pass.errors)")
        #expect(!pass.errors.contains("rejected a record"))
        #expect(try a.password(service: "sent", account: "x") == "sent-before-leaving")
        #expect(try a.password(service: "unsent", account: "x") == "changed-just-before-leaving")
        #expect(try server.psql("SELECT max(epoch) FROM keychain_sync_rosters") == "2\n")
    }

    /// Requirement "a removed member's database role cannot hold back the others' new key":
    /// a removes c and writes under the new key; before b reads the removal, c's login role (in
    /// keychain_sync_member, as the docs tell the owner to make one) appends a roster of the
    /// next epoch that nobody signed and a key wrap of that epoch addressed to b, which the
    /// database allows. b rejects both and takes its real wrap of the removal's epoch: it
    /// reads what a wrote. Before, b tried only the newest wrap addressed to it, rejected it,
    /// and never got the new key.
    @Test func wrapBeyondTheChainDoesNotHoldBackTheNewKey() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        try syncOnce(a, b, c)
        let removal = try a.run("sync", "remove", "c")
        #expect(removal.status == 0, "\(removal.errors)")
        try a.store(service: "after-removal", account: "x", password: "under-the-new-key")
        try syncOnce(a)

        let epoch = try #require(Int(server.psql("SELECT max(epoch) FROM keychain_sync_rosters")
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        try server.psql("CREATE ROLE c_login LOGIN IN ROLE keychain_sync_member")
        try server.psql("""
            INSERT INTO keychain_sync_rosters (group_id, epoch, roster) SELECT group_id, \(epoch + 1), '\\x00' FROM keychain_sync_groups;
            INSERT INTO keychain_sync_key_wraps (group_id, epoch, device, wrap)
                SELECT group_id, \(epoch + 1), '\\x\(try b.deviceID().hex)', '\\x00' FROM keychain_sync_groups
            """, user: "c_login")

        let pass = try b.run("sync", "run", "--once")
        #expect(pass.status == 0, "\(pass.errors)")
        #expect(pass.errors.contains("rejected a roster"), "\(pass.errors)")
        #expect(try b.password(service: "after-removal", account: "x") == "under-the-new-key")
        #expect(try b.run("sync", "status", "--offline").output.contains("key epoch: \(epoch)"))
    }

    /// Requirement "a roster no member signed holds back membership changes only until the
    /// database's owner deletes it", as docs/Sync.md says: a login role in
    /// keychain_sync_member appends a roster of the next epoch (any bytes), which the database
    /// allows. Members reject it and sync on; `sync remove` refuses and says what holds it
    /// up; once the owner deletes the row, the removal goes through and b takes it.
    @Test func unsignedNextRosterHoldsRemovalsUntilTheOwnerDeletesIt() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        try syncOnce(a, b, c)
        let epoch = try #require(Int(server.psql("SELECT max(epoch) FROM keychain_sync_rosters")
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        try server.psql("CREATE ROLE c_login LOGIN IN ROLE keychain_sync_member")
        try server.psql("""
            INSERT INTO keychain_sync_rosters (group_id, epoch, roster) SELECT group_id, \(epoch + 1), '\\x00' FROM keychain_sync_groups
            """, user: "c_login")

        try a.store(service: "meanwhile", account: "x", password: "still-syncing")
        try syncOnce(a, b)
        #expect(try b.password(service: "meanwhile", account: "x") == "still-syncing")
        let refused = try a.run("sync", "remove", "c")
        #expect(refused.status != 0)
        #expect(refused.errors.contains("roster of key epoch \(epoch + 1) that no member signed"), "\(refused.errors)")

        try server.psql("DELETE FROM keychain_sync_rosters WHERE epoch = \(epoch + 1)")
        let removal = try a.run("sync", "remove", "c")
        #expect(removal.status == 0, "\(removal.errors)")
        try syncOnce(b)
        #expect(try b.run("sync", "status", "--offline").output.contains("key epoch: \(epoch + 1)"))
    }

    /// Requirement "every record is checked (signature, membership) before its version is
    /// believed; one that fails is rejected and logged once, never its content": a copy of a
    /// real record whose signed version was lowered (so its signature no longer matches) is
    /// appended beside it. Both members reject and log it once, and keep the real item. Before,
    /// a member that knew a newer version skipped it on the version it claimed, unchecked and
    /// unlogged.
    @Test func forgedRecordWithAnOlderVersionIsRejectedAndLogged() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "real", account: "x", password: "real-secret")
        try syncOnce(a, b)
        // The version's time is the 8 bytes after the magic (4), format (1), group id (16) and
        // item id (32): set to zero in the signed header and in the server's column alike.
        try server.psql("""
            SET session_replication_role = replica;
            INSERT INTO keychain_sync_records (group_id, item_id, version, tombstone, record)
            SELECT group_id, item_id, overlay(version PLACING '\\x0000000000000000'::bytea FROM 1 FOR 8), tombstone,
                   overlay(record PLACING '\\x0000000000000000'::bytea FROM 54 FOR 8)
            FROM keychain_sync_records ORDER BY sequence DESC LIMIT 1
            """)
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_records") == "2\n")

        for member in [a, b] {
            let pass = try member.run("sync", "run", "--once")
            #expect(pass.status == 0, "\(pass.errors)")
            #expect(pass.errors.components(separatedBy: "rejected a record").count == 2, "\(member.name): \(pass.errors)")
            #expect(!pass.errors.contains("real-secret"))
            #expect(try member.password(service: "real", account: "x") == "real-secret")
            let again = try member.run("sync", "run", "--once")
            #expect(again.status == 0 && !again.errors.contains("rejected a record"), "\(member.name): \(again.errors)")
        }
    }

    /// Requirement "a member's database role cannot take an item away from the others": the
    /// role of a machine (removed, or any in keychain_sync_member) appends, for an item of the
    /// group, a record dated as far ahead as a version may be (any bytes). The database keeps
    /// the real record beside it; the owner's later change still reaches the other member, and
    /// a machine that joins afterwards gets it. Before, the append made the database delete the
    /// real record and refuse every later version of the item: b kept the old secret and the
    /// joiner got nothing.
    @Test func recordDatedAheadByAnotherRoleHoldsNothingBack() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, late) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("late"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        try a.store(service: "shared", account: "x", password: "first-secret")
        try syncOnce(a, b)
        try server.psql("CREATE ROLE c_login LOGIN IN ROLE keychain_sync_member")
        // The time 2^62, the latest a version may carry, before the rest of the real version.
        try server.psql("""
            INSERT INTO keychain_sync_records (group_id, item_id, version, tombstone, record)
            SELECT group_id, item_id, '\\x4000000000000000'::bytea || substring(version FROM 9), false, '\\x00'
            FROM keychain_sync_records ORDER BY sequence DESC LIMIT 1
            """, user: "c_login")
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_records") == "2\n")

        try a.store(service: "shared", account: "x", password: "second-secret", update: true)
        try syncOnce(a, b)
        #expect(try b.password(service: "shared", account: "x") == "second-secret")
        try admit(late, server: server.tcpAddress(), approver: a)
        try syncOnce(late)
        #expect(try late.password(service: "shared", account: "x") == "second-secret")
    }

    /// Requirement "a removal is published only if no record reached the group after the
    /// sequence the remover read to": the server refuses it (nothing stored) otherwise.
    @Test func publishRosterRefusesWhenRecordsFollowTheReadSequence() async throws {
        try await SyncServerFixture.withGroup { _, server, group in
            let sequence = try await server.append(group, records: [
                (itemID: SyncServerFixture.randomBytes(32), version: SyncServerFixture.version(1), isTombstone: false,
                 record: Data("r".utf8)),
            ])
            await #expect(throws: SyncServerError.recordsAppended) {
                try await server.publishRoster(group, epoch: 1, roster: Data("r1".utf8), wraps: [], readThrough: sequence - 1)
            }
            #expect(try await server.rosters(group, after: 0).isEmpty)
            try await server.publishRoster(group, epoch: 1, roster: Data("r1".utf8), wraps: [], readThrough: sequence)
            #expect(try await server.rosters(group, after: 0).map(\.epoch) == [1])
        }
    }

    /// Signs, as `member` (removed, with what it kept), a record of the item `service`/`account`
    /// holding `secret`, with counter 1 and a time a day ahead, under the newest epoch key it
    /// holds, and inserts it into the server's records table.
    private func insertForgedRecord(by member: SyncMember, service: String, account: String, secret: String,
                                    server: PostgresTestServer) throws {
        // The removed device changes its own copy, then seals that row as a record.
        try member.store(service: service, account: account, password: secret, update: true)
        let store = try KeychainStore.shared(member.files, create: false)
        let session = try SyncSession.load(files: member.files, store: store)
        let secrets = try #require(session.configuration.secrets)
        let entry = try #require(try store.syncLog(after: session.state.integer(.logPushed), limit: 100).last)
        let item = try #require(try store.syncedItem(rowID: entry.rowID))
        let version = RecordVersion(time: UInt64(Date().timeIntervalSince1970 * 1000) + 86_400_000,
                                    device: session.me, counter: 1)
        let itemID = secrets.itemID(for: item.identityBytes)
        let record = try SealedRecord.seal(content: item.serialized(includingSecret: true), itemID: itemID, version: version,
                                           isTombstone: false, group: session.configuration.group, secrets: secrets,
                                           rosterHead: #require(session.chain.roster(epoch: secrets.currentEpoch)).hash,
                                           author: session.configuration.device)
        func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
        // Beside the real record, which the superseding trigger would remove: written as the
        // database's owner can, with the trigger off for this session.
        try server.psql("""
            SET session_replication_role = replica;
            INSERT INTO keychain_sync_records (group_id, item_id, version, tombstone, record)
            VALUES (decode('\(hex(session.configuration.group.bytes))', 'hex'), decode('\(hex(itemID))', 'hex'),
                    decode('\(hex(version.encoded))', 'hex'), false, decode('\(hex(record.encoded))', 'hex'))
            """)
    }
}

extension SyncMember {
    /// The member's default keychain, for the package API in this process.
    var files: KeychainFiles {
        KeychainFiles(directory: keychainFolder, name: "login",
                      machineSecret: home.appendingPathComponent("state/swift-keychain/machine-secret"))
    }

    /// This member's device id, from its sync configuration.
    func deviceID() throws -> DeviceID {
        let store = try KeychainStore.shared(files, create: false)
        return try SyncSession.load(files: files, store: store).me
    }
}

/// A count shared with a @Sendable closure.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}
