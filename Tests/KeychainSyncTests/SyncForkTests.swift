import Foundation
import KeychainCore
import KeychainSync
import Logging
import Testing
import TestSupport

/// Forks of a sync group's membership are detected by the members, with a real PostgreSQL and
/// keychainctl as users run it: a member that sees both histories reports the fork in
/// `sync status` and its log, keeps it, and stops syncing the group; `sync run` exits non-zero
/// (contract: "a fork of the membership ... is detected by the members ... never silently
/// accepted").
@Suite("Sync forks", .serialized)
struct SyncForkTests {
    static let logger = Logger(label: "keychain-sync-fork-tests")

    /// Requirement "a removal cannot be undone by a fork": a removes c; before c pulls, c
    /// deletes that roster and its key wraps (as the database's owner) and removes a. b takes
    /// c's roster, the only one it can see, then reads what a wrote under its own: a fork. a
    /// finds c's roster where its own was: a fork. Neither applies anything c wrote after its
    /// removal, neither lists c again, and both say so in `sync status`.
    @Test func deletedRemovalThenCounterRemovalIsDetectedByBothSides() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        for member in [a, b, c] { #expect(try member.run("sync", "run", "--once").status == 0) }

        let removal = try a.run("sync", "remove", "c")
        #expect(removal.status == 0, "\(removal.errors)")
        try a.store(service: "from-a", account: "x", password: "written-by-a-after-removing-c")
        #expect(try a.run("sync", "run", "--once").status == 0)

        // The attack: the roster of epoch 3 and its key wraps are deleted, then c removes a.
        try server.psql("DELETE FROM keychain_sync_key_wraps WHERE epoch = 3; DELETE FROM keychain_sync_rosters WHERE epoch = 3")
        let counter = try c.run("sync", "remove", "a")
        #expect(counter.status == 0, "\(counter.errors)")
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_rosters WHERE epoch = 3") == "1\n")
        try c.store(service: "from-c", account: "x", password: "written-by-c-after-its-removal")
        // c sends its item first, then reads again what it had read past (a's record under
        // a's roster of epoch 3): c sees both histories too.
        let passC = try c.run("sync", "run", "--once")
        #expect(passC.status != 0)
        #expect(passC.errors.contains("the sync group has forked at key epoch 3"), "\(passC.errors)")
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_records") != "0\n")

        let passB = try b.run("sync", "run", "--once")
        #expect(passB.status != 0)
        #expect(passB.errors.contains("the sync group has forked at key epoch 3"), "\(passB.errors)")
        #expect(passB.errors.contains("a (\(try a.deviceID().shortHex)) writes records under another roster"))
        let passA = try a.run("sync", "run", "--once")
        #expect(passA.status != 0)
        #expect(passA.errors.contains("the sync group has forked at key epoch 3"), "\(passA.errors)")
        #expect(passA.errors.contains("c (\(try c.deviceID().shortHex)) signed another roster"))
        for pass in [passA, passB] {
            #expect(!pass.errors.contains("written-by"), "the log holds no secret")
        }

        // c, its agent tampered with to forget the fork, goes on writing; nothing of it is
        // applied, and every later pass of a and b stops at once.
        try c.editSyncState("DELETE FROM fork")
        try c.store(service: "from-c-later", account: "x", password: "written-by-c-later")
        let records = try server.psql("SELECT count(*) FROM keychain_sync_records")
        _ = try c.run("sync", "run", "--once")
        #expect(try server.psql("SELECT count(*) FROM keychain_sync_records") != records, "c's later item reached the server")
        for member in [a, b] {
            let pass = try member.run("sync", "run", "--once")
            #expect(pass.status != 0 && pass.errors.contains("forked at key epoch 3"), "\(member.name): \(pass.errors)")
            #expect(try member.password(service: "from-c", account: "x") == nil, "on \(member.name)")
            #expect(try member.password(service: "from-c-later", account: "x") == nil, "on \(member.name)")
            let status = try member.run("sync", "status", "--offline")
            #expect(status.status == 0, "\(status.errors)")
            #expect(status.output.contains("state: stopped: the group has forked"), "\(member.name): \(status.output)")
            #expect(status.output.contains("FORK (detected "), "\(member.name): \(status.output)")
            #expect(status.output.contains("forked at key epoch 3"))
            #expect(status.output.contains("sync leave --local on every machine"))
        }
        // a still holds its own roster: a and b, c not admitted again.
        let statusA = try a.run("sync", "status", "--offline").output
        #expect(statusA.contains("key epoch: 3"))
        #expect(statusA.contains("  b\n") && !statusA.contains("  c\n"), "\(statusA)")
        #expect(try b.password(service: "from-a", account: "x") == nil)

        // The agent that runs on stops with the same message, non-zero.
        try b.startAgent()
        try eventually(30, "b's agent ends") { b.agent?.poll() != nil }
        #expect(b.agent?.poll().map { $0.status != 0 } == true)
        #expect(b.agentLogs.contains("forked at key epoch 3"))
    }

    /// Requirement "a fork seen only in the server's rosters reaches the other history": a
    /// removes c, the removal is deleted and c removes a while b is idle. a finds c's roster
    /// where its own was, before anyone wrote under either; it tells the other history with a
    /// record written under its own roster, so c and b (which takes c's roster, the only one
    /// it sees) detect the fork too, and b applies nothing c wrote after its removal.
    @Test func forkSeenOnlyInTheRostersReachesTheOtherHistory() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        for member in [a, b, c] { #expect(try member.run("sync", "run", "--once").status == 0) }

        #expect(try a.run("sync", "remove", "c").status == 0)
        try server.psql("DELETE FROM keychain_sync_key_wraps WHERE epoch = 3; DELETE FROM keychain_sync_rosters WHERE epoch = 3")
        let counter = try c.run("sync", "remove", "a")
        #expect(counter.status == 0, "\(counter.errors)")

        let passA = try a.run("sync", "run", "--once")
        #expect(passA.status != 0)
        #expect(passA.errors.contains("told the other members of the sync group of the fork"), "\(passA.errors)")

        try c.store(service: "from-c", account: "x", password: "written-by-c-after-its-removal")
        for member in [c, b] {
            let pass = try member.run("sync", "run", "--once")
            #expect(pass.status != 0, "\(member.name)")
            #expect(pass.errors.contains("the sync group has forked at key epoch 3"), "\(member.name): \(pass.errors)")
            #expect(!pass.errors.contains("written-by"), "the log holds no secret")
            let status = try member.run("sync", "status", "--offline").output
            #expect(status.contains("FORK (detected "), "\(member.name): \(status)")
        }
        #expect(try b.password(service: "from-c", account: "x") == nil)
        // The notice deleted nothing on a's side, and a stopped after sending it once.
        let again = try a.run("sync", "run", "--once")
        #expect(again.status != 0 && !again.errors.contains("told the other members"), "\(again.errors)")
    }

    /// Requirement "a fork stays visible after the server is restored from a backup": a
    /// removes c, the removal is deleted and c removes a; a and c detect the fork, tell of it
    /// and stop. Then the server is restored from a backup taken before the removal: no roster
    /// of that epoch, no notice, and b idle all along. Each time a and c start again (as
    /// systemd restarts a failed agent), they put their sides back: c first, so b takes c's
    /// roster; then a, whose notice b reads as the other history. b reports the fork and
    /// never applies what c wrote after its removal. Before, the two stopped members sent
    /// nothing again, and b went on in silence.
    @Test func forkStaysVisibleAfterARestoredBackup() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b, c) = (try SyncMember("a"), try SyncMember("b"), try SyncMember("c"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b, c])
        for member in [a, b, c] { #expect(try member.run("sync", "run", "--once").status == 0) }
        let backup = try server.dump()

        #expect(try a.run("sync", "remove", "c").status == 0)
        try server.psql("DELETE FROM keychain_sync_key_wraps WHERE epoch = 3; DELETE FROM keychain_sync_rosters WHERE epoch = 3")
        #expect(try c.run("sync", "remove", "a").status == 0)
        try c.store(service: "from-c", account: "x", password: "written-by-c-after-its-removal")
        for member in [a, c] {
            let pass = try member.run("sync", "run", "--once")
            #expect(pass.status != 0 && pass.errors.contains("forked at key epoch 3"), "\(member.name): \(pass.errors)")
        }

        try server.restore(backup)
        #expect(try server.psql("SELECT max(epoch) FROM keychain_sync_rosters") == "2\n")
        #expect(try c.run("sync", "run", "--once").status != 0)
        // b sees c's history alone so far: its roster and its notice, which prove nothing.
        _ = try b.run("sync", "run", "--once")
        #expect(try a.run("sync", "run", "--once").status != 0)
        let passB = try b.run("sync", "run", "--once")
        #expect(passB.status != 0)
        #expect(passB.errors.contains("the sync group has forked at key epoch 3"), "\(passB.errors)")
        let status = try b.run("sync", "status", "--offline").output
        #expect(status.contains("FORK (detected "), "\(status)")
        #expect(try b.password(service: "from-c", account: "x") == nil)
        // The stopped members keep stopping, and say they told the others once only.
        for member in [a, c] {
            let again = try member.run("sync", "run", "--once")
            #expect(again.status != 0 && !again.errors.contains("told the other members"), "\(member.name): \(again.errors)")
        }
    }

    /// Requirement "a roster swapped at an epoch a member holds is detected": the server's
    /// roster of epoch 1 replaced by one a member of epoch 0 also signed stops both members;
    /// replaced by one nobody of the group signed, it is only rejected and sync goes on.
    @Test func rosterSwappedAtAKnownEpochIsAFork() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        for member in [a, b] { #expect(try member.run("sync", "run", "--once").status == 0) }

        let store = try KeychainStore.shared(a.files, create: false)
        let session = try SyncSession.load(files: a.files, store: store)
        let genesis = try #require(session.chain.roster(epoch: 0))
        let other = try genesis.adding(DeviceIdentity.generate(name: "intruder").publicIdentity,
                                       signer: session.configuration.device)
        // The same roster, signed by a device that is no member (its id in the signer field,
        // the 16 bytes before the 64-byte signature).
        let outsider = DeviceIdentity.generate(name: "outsider")
        var body = Data(other.encoded.dropLast(64))
        body.replaceSubrange((body.count - 16)..<body.count, with: outsider.id.bytes)
        let forged = body + (try outsider.signature(for: body))

        try server.psql("UPDATE keychain_sync_rosters SET roster = decode('\(Hex.string(forged))', 'hex') WHERE epoch = 1")
        try b.store(service: "still-syncing", account: "x", password: "s1")
        for member in [b, a] {
            let pass = try member.run("sync", "run", "--once")
            #expect(pass.status == 0, "\(member.name): \(pass.errors)")
            #expect(pass.errors.contains("rejected a roster"), "\(member.name) logs the rejection")
        }
        #expect(try a.password(service: "still-syncing", account: "x") == "s1")

        try server.psql("UPDATE keychain_sync_rosters SET roster = decode('\(Hex.string(other.encoded))', 'hex') WHERE epoch = 1")
        for member in [a, b] {
            let pass = try member.run("sync", "run", "--once")
            #expect(pass.status != 0, "\(member.name)")
            #expect(pass.errors.contains("the sync group has forked at key epoch 1"), "\(member.name): \(pass.errors)")
            let status = try member.run("sync", "status", "--offline").output
            #expect(status.contains("FORK (detected "), "\(member.name): \(status)")
        }
    }

    /// Requirement "a record naming a roster head nobody holds is rejected without stalling":
    /// a member's record for an epoch no roster has, naming a head no roster has, is rejected
    /// and logged once by a running agent, which applies what follows it.
    @Test func recordNamingAnUnknownRosterHeadIsRejectedOnce() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        for member in [a, b] { #expect(try member.run("sync", "run", "--once").status == 0) }
        try a.startAgent()

        let store = try KeychainStore.shared(b.files, create: false)
        let session = try SyncSession.load(files: b.files, store: store)
        var ahead = try #require(session.configuration.secrets)
        _ = ahead.advanceKeepingKey()
        _ = ahead.advanceKeepingKey()
        let itemID = ahead.itemID(for: Data("unknown head".utf8))
        let version = RecordVersion(time: UInt64(Date().timeIntervalSince1970 * 1000), device: session.me, counter: 1)
        let record = try SealedRecord.seal(content: Data("unknown head".utf8), itemID: itemID, version: version,
                                           isTombstone: false, group: session.configuration.group, secrets: ahead,
                                           rosterHead: Data(repeating: 0x5A, count: 32), author: session.configuration.device)
        let connection = try await SyncServer.connect(SyncServerAddress(parsing: server.tcpAddress()), logger: Self.logger,
                                                      operationTimeout: SyncServerFixture.operationTimeout)
        do {
            _ = try await connection.append(session.configuration.group.bytes, records: [
                (itemID: itemID, version: version.encoded, isTombstone: false, record: record.encoded),
            ])
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()

        for (round, secret) in ["after-1", "after-2"].enumerated() {
            try b.store(service: "after", account: "x", password: secret, update: round > 0)
            #expect(try b.run("sync", "run", "--once").status == 0)
            try eventually(30, "a applies \(secret)") { try a.password(service: "after", account: "x") == secret }
        }
        let logs = a.agentLogs
        #expect(logs.components(separatedBy: "names a roster head this member does not know, at epoch 3").count == 2,
                "logged once: \(logs)")
        #expect(a.agent?.poll() == nil, "the agent runs on")
        #expect(!(try a.run("sync", "status", "--offline").output.contains("FORK")))
        #expect(a.stopAgent() == 0)
    }

    /// Requirement "records in the new format reach a member whose older agent rejected them":
    /// an agent from before records named a roster head rejected them as an unknown format and
    /// read past them; its state, opened by this version, starts reading the group over.
    @Test func updatedAgentReadsAgainWhatItsOlderVersionSkipped() async throws {
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (a, b) = (try SyncMember("a"), try SyncMember("b"))
        try formGroup(server: server.tcpAddress(), founder: a, others: [b])
        for member in [a, b] { #expect(try member.run("sync", "run", "--once").status == 0) }
        try a.store(service: "new-format", account: "x", password: "read-after-the-update")
        #expect(try a.run("sync", "run", "--once").status == 0)

        // b's state as its older agent left it: read past that record, without this version's
        // migration (sqlite3, not the agent's own code).
        let last = try server.psql("SELECT max(sequence) FROM keychain_sync_records").trimmingCharacters(in: .whitespacesAndNewlines)
        let state = b.keychainFolder.appendingPathComponent("login.keychain-sync").path
        let older = try SpawnedProcess.runToEnd("/usr/bin/sqlite3", [state, """
            INSERT OR REPLACE INTO progress (key, value) VALUES ('cursor', \(last));
            DELETE FROM grdb_migrations WHERE identifier = 'fork-detection'; DROP TABLE fork;
            """], environment: b.environment, outputIn: b.home.appendingPathComponent("io"))
        #expect(older.status == 0, "\(older.errors)")

        let pass = try b.run("sync", "run", "--once")
        #expect(pass.status == 0, "\(pass.errors)")
        #expect(try b.password(service: "new-format", account: "x") == "read-after-the-update")
    }
}
