import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Sync under faults: members cut off and back, agents and the server killed with SIGKILL at
/// random moments, the server's database restored from a backup taken during the run, and
/// records and tombstones deleted from it at random. The number of operations and the seed come from
/// `SYNC_CONVERGENCE_OPERATIONS` and `SYNC_CONVERGENCE_SEED` (Scripts/sync-convergence runs a
/// long sample); `swift test` runs a short one with a fresh seed, printed so that a failure can
/// be replayed.
@Suite("Sync under partitions and kills", .serialized)
struct SyncFaultTests {
    static let environment = ProcessInfo.processInfo.environment

    /// Requirement "three members converge after random adds, updates and deletes on all
    /// members and random partitions", and "a server that rolls back or drops records does not
    /// make members diverge unnoticed": afterwards every member holds exactly the same items,
    /// for each the last change made to it (the last value written, or nothing when it was
    /// last deleted: no deleted item back, no older value), though the server was restored
    /// from a backup and lost rows on the way; and a write after healing reaches everyone.
    @Test func threeMembersConvergeAfterPartitions() async throws {
        let operations = Int(Self.environment["SYNC_CONVERGENCE_OPERATIONS"] ?? "") ?? 30
        let seed = UInt64(Self.environment["SYNC_CONVERGENCE_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
        print("sync convergence: \(operations) operations, SYNC_CONVERGENCE_SEED=\(seed)")
        var random = SeededGenerator(seed: seed)
        let server = try PostgresTestServer()
        defer { server.remove() }
        let members = [try SyncMember("a"), try SyncMember("b"), try SyncMember("c")]
        try formGroup(server: server.tcpAddress(), founder: members[0], others: Array(members.dropFirst()))
        for member in members { try member.startAgent() }

        let services = (0..<6).map { "service-\($0)" }
        var written: [String: Set<String>] = [:]
        // The last change made to each item: every member must end with it, unless it was a
        // delete made while the member had changes not sent yet (a row added here and deleted
        // before any was sent never reached the server, so its delete sends nothing and does
        // not override what another member wrote meanwhile).
        var last: [String: String?] = [:]
        var uncertain = Set<String>()
        var backup: String?
        var attacks = (restores: 0, droppedRecords: 0, droppedTombstones: 0)
        // The removal raced by the removed member, at a seeded turn (see SyncRemovalRace).
        let raceAt = Self.removalRace ? Int.random(in: 0..<max(operations, 1), using: &random) : nil
        let raceRemover = Int.random(in: 0..<members.count, using: &random)
        let raceRemoved = (raceRemover + Int.random(in: 1..<members.count, using: &random)) % members.count
        let raceStopsAgent = Bool.random(using: &random)
        var race: SyncRemovalRace?
        // Who made each item's last change, and what the removed member wrote after its removal.
        var lastWriter: [String: String] = [:]
        var writtenAfterRemoval = Set<String>()
        // What happened, in order, printed to explain a failure.
        var trace: [String] = []
        for operation in 0..<operations {
            if operation == raceAt {
                let removed = members[raceRemoved]
                // Changes the removed member had not sent may never reach the group.
                if try removed.pendingLocalChanges() > 0 {
                    for (service, writer) in lastWriter where writer == removed.name { uncertain.insert(service) }
                }
                let raceStart = Date()
                race = try SyncRemovalRace.run(remover: members[raceRemover], removed: removed, server: server,
                                               stopRemovedAgent: raceStopsAgent)
                print("sync convergence: \(members[raceRemover].name) removed \(removed.name) at operation \(operation), "
                      + "which then \(race?.counterRemoved == true ? "removed" : "could not remove") \(members[raceRemover].name)"
                      + " (\(raceStopsAgent ? "its agent stopped" : "its agent left as it was"), \(Int(-raceStart.timeIntervalSinceNow)) s)"
                      + ((race?.refusal.isEmpty ?? true) ? "" : ": \(race?.refusal.split(separator: "\n").last ?? "")"))
            }
            let fault = Int.random(in: 0..<100, using: &random)
            let running = members.filter { $0.agent != nil }
            let stopped = members.filter { $0.agent == nil }
            if fault < 12, let member = running.randomElement(using: &random) {
                member.killAgent()
                trace.append("\(operation): \(member.name)'s agent killed")
            } else if fault < 24, let member = stopped.randomElement(using: &random) {
                try member.startAgent()
                trace.append("\(operation): \(member.name)'s agent started")
            } else if fault < 27 {
                try server.kill9()
                try server.startAfterCrash()
                trace.append("\(operation): server killed and started")
            } else if fault < 31 {
                // A backup taken now, restored at a later turn: the rows and the record
                // sequence go back to it.
                if let taken = backup {
                    try server.restore(taken)
                    backup = nil
                    attacks.restores += 1
                    trace.append("\(operation): server restored from the backup")
                } else {
                    backup = try server.dump()
                    trace.append("\(operation): backup taken")
                }
            } else if fault < 36 {
                let tombstone = fault >= 34
                let filter = tombstone ? "WHERE tombstone" : ""
                let pick = Int.random(in: 0..<1_000, using: &random)
                let dropped = try server.psql("""
                    DELETE FROM keychain_sync_records WHERE sequence = (SELECT sequence FROM keychain_sync_records \(filter)
                    ORDER BY sequence OFFSET \(pick) % greatest((SELECT count(*) FROM keychain_sync_records \(filter)), 1) LIMIT 1)
                    RETURNING 1
                    """)
                if !dropped.isEmpty {
                    if tombstone { attacks.droppedTombstones += 1 } else { attacks.droppedRecords += 1 }
                    trace.append("\(operation): a \(tombstone ? "tombstone" : "record") dropped")
                }
            }
            let member = members[Int.random(in: 0..<members.count, using: &random)]
            let service = services[Int.random(in: 0..<services.count, using: &random)]
            if let race, member === race.removed {
                // The removed member goes on writing: none of it may reach a member that did
                // not report a fork.
                if Int.random(in: 0..<10, using: &random) < 3 {
                    try member.delete(service: service, account: "user")
                } else {
                    let value = "value-\(operation)-\(member.name)-removed"
                    writtenAfterRemoval.insert(value)
                    try member.store(service: service, account: "user", password: value, update: true)
                }
                continue
            }
            lastWriter[service] = member.name
            if Int.random(in: 0..<10, using: &random) < 3 {
                // A member that does not hold the item (yet) deletes nothing.
                let allSent = try member.pendingLocalChanges() == 0
                let deleted = try member.delete(service: service, account: "user")
                trace.append("\(operation): \(member.name) deleted \(service)\(deleted ? "" : " (held nothing)")\(allSent ? "" : ", changes unsent")")
                if deleted {
                    if allSent {
                        last[service] = String?.none
                        uncertain.remove(service)
                    } else {
                        uncertain.insert(service)
                    }
                }
            } else {
                let value = "value-\(operation)-\(member.name)"
                written[service, default: []].insert(value)
                try member.store(service: service, account: "user", password: value, update: true)
                trace.append("\(operation): \(member.name) stored \(value)")
                last[service] = value
                uncertain.remove(service)
            }
        }
        print("sync convergence: \(attacks.restores) restores, \(attacks.droppedRecords) records and "
              + "\(attacks.droppedTombstones) tombstones dropped")
        for member in members where member.agent == nil { try member.startAgent() }
        if let race {
            try checkRemovalRace(race, members: members, services: services, written: written, last: last,
                                 uncertain: uncertain, writtenAfterRemoval: writtenAfterRemoval)
            print("sync convergence: PASS (\(operations) operations, seed \(seed), \(attacks.restores) restores from a backup, "
                  + "\(attacks.droppedRecords) records and \(attacks.droppedTombstones) tombstones dropped, "
                  + "removal race at operation \(raceAt ?? 0): \(race.counterRemoved ? "fork reported by all three" : "the counter-removal was refused, its removal being known; the other two converged"))")
            return
        }

        var final: [String: String?] = [:]
        var explain = false
        defer {
            // What happened, what each member holds and what its agent said, to explain a failure.
            if final.count != services.count || explain {
                print("sync convergence trace:\n" + trace.joined(separator: "\n"))
                for member in members {
                    let held = services.map { (try? member.password(service: $0, account: "user")).flatMap { $0 } ?? "-" }
                    print("member \(member.name) holds \(held)\n\((try? member.run("sync", "status", "--offline").output) ?? "")"
                          + "agent log tail:\n\(member.agentLogs.split(separator: "\n").suffix(explain ? 400 : 12).joined(separator: "\n"))")
                    if let pid = member.agent?.pid, FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb"),
                       let stacks = try? SpawnedProcess.runToEnd("/usr/bin/gdb", ["-p", "\(pid)", "-batch", "-ex", "thread apply all bt 30"],
                                                                environment: member.environment, outputIn: member.home.appendingPathComponent("io")) {
                        print("agent \(pid) stacks:\n" + stacks.output.split(separator: "\n")
                            .filter { $0.contains("KeychainSync") || $0.contains("KeychainCore") || $0.contains("PostgresNIO") || $0.hasPrefix("Thread") }
                            .joined(separator: "\n"))
                    }
                }
            }
        }
        try eventually(90, "the three members hold the same items") {
            for service in services {
                let values = try members.map { try $0.password(service: service, account: "user") }
                guard Set(values).count == 1 else {
                    final = [:]
                    return false
                }
                final[service] = values[0]
            }
            return true
        }
        for service in services {
            if let value = final[service] ?? nil {
                #expect(written[service]?.contains(value) == true, "\(service) holds \(value), which no member wrote")
            }
            let lastHeld = uncertain.contains(service) || (final[service] ?? nil) == (last[service] ?? nil)
            #expect(lastHeld, "\(service) holds \((final[service] ?? nil) ?? "nothing"), not its last change \((last[service] ?? nil) ?? "(deleted)")")
            if !lastHeld { explain = true }
        }
        try members[2].store(service: "after-healing", account: "user", password: "everyone-gets-this")
        try eventually(30, "a write after healing reaches every member") {
            try members.allSatisfy { try $0.password(service: "after-healing", account: "user") == "everyone-gets-this" }
        }
        for member in members { member.stopAgent() }
        print("sync convergence: PASS (\(operations) operations, seed \(seed), \(attacks.restores) restores from a backup, "
              + "\(attacks.droppedRecords) records and \(attacks.droppedTombstones) tombstones dropped, no removal race)")
    }

    /// Requirement "kill -9 of agents at random moments: no acknowledged local change lost,
    /// none applied twice": a member writes while its agent is killed and restarted at random;
    /// every member ends with the last value of each item, and deleted items stay deleted (an
    /// older change sent again would bring them back).
    @Test func agentKilledAtAnyMomentLosesNothing() async throws {
        let seed = UInt64(Self.environment["SYNC_CONVERGENCE_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
        print("sync kill test: SYNC_CONVERGENCE_SEED=\(seed)")
        var random = SeededGenerator(seed: seed)
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (writer, reader) = (try SyncMember("writer"), try SyncMember("reader"))
        try formGroup(server: server.tcpAddress(), founder: writer, others: [reader])
        try reader.startAgent()
        try writer.startAgent()
        var expected: [String: String?] = [:]
        for step in 0..<24 {
            let service = "item-\(step % 8)"
            if step % 8 == 7, expected[service] != nil {
                try writer.delete(service: service, account: "user")
                expected[service] = String?.none
            } else {
                try writer.store(service: service, account: "user", password: "value-\(step)", update: true)
                expected[service] = "value-\(step)"
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
                usleep(UInt32.random(in: 0..<200_000, using: &random))
                writer.killAgent()
                try writer.startAgent()
            }
        }
        try eventually(60, "the reader holds the writer's last values") {
            try expected.allSatisfy { service, value in
                try reader.password(service: service, account: "user") == value
            }
        }
        writer.stopAgent()
        reader.stopAgent()
    }
}

extension SyncFaultTests {
    /// Whether the convergence run includes the removal raced by the removed member
    /// (`SYNC_CONVERGENCE_REMOVAL_RACE=1`, as Scripts/sync-convergence sets it). Left out of
    /// the default sample: the removal waits for the agents' passes, which after a server kill
    /// can wait out a 30-second timeout, so the race adds minutes rather than seconds.
    static var removalRace: Bool { environment["SYNC_CONVERGENCE_REMOVAL_RACE"] == "1" }

    /// The verdict after a removal race, with every agent started again: when the removed
    /// member's counter-removal was accepted (the fork), every member reports the fork and its
    /// agent ends non-zero; when it was refused (it had read its removal), nobody reports a
    /// fork, the removed member knows it was removed, and the two others hold the same items,
    /// for each the last change they (or the removed member before its removal) made, and a
    /// write after healing reaches both. Either way, nothing the removed member wrote after its
    /// removal is held by a member that did not report a fork.
    func checkRemovalRace(_ race: SyncRemovalRace, members: [SyncMember], services: [String],
                          written: [String: Set<String>], last: [String: String?], uncertain: Set<String>,
                          writtenAfterRemoval: Set<String>) throws {
        let remaining = members.filter { $0 !== race.removed }
        var final: [String: String?] = [:]
        var checked = false
        defer {
            for member in members where !checked {
                let held = services.map { (try? member.password(service: $0, account: "user")).flatMap { $0 } ?? "-" }
                print("member \(member.name) holds \(held)\n\((try? member.run("sync", "status", "--offline").output) ?? "")"
                      + "agent log tail:\n\(member.agentLogs.split(separator: "\n").suffix(8).joined(separator: "\n"))")
            }
            if !checked && !race.counterRemoved { print("the counter-removal was refused: \(race.refusal)") }
        }
        if race.counterRemoved {
            var silent: [String] = []
            do {
                try eventually(90, "every member reports the fork at key epoch \(race.epoch)") {
                    silent = try members.filter { !(try SyncRemovalRace.reportsFork($0)) }.map(\.name)
                    return silent.isEmpty
                }
            } catch {
                throw SyncTestFailure("\(error); silent: \(silent.joined(separator: ", "))")
            }
            for member in members {
                let status = try member.run("sync", "status", "--offline").output
                #expect(status.contains("forked at key epoch \(race.epoch)"), "\(member.name): \(status)")
                try eventually(30, "\(member.name)'s agent ends") { member.agent?.poll() != nil }
                #expect(member.agent?.poll().map { $0.status != 0 } == true, "\(member.name)'s agent ends non-zero")
            }
        } else {
            try eventually(90, "the two remaining members hold the same items") {
                for service in services {
                    let values = try remaining.map { try $0.password(service: service, account: "user") }
                    guard Set(values).count == 1 else { return false }
                    final[service] = values[0]
                }
                return true
            }
            for member in members {
                #expect(!(try SyncRemovalRace.reportsFork(member)), "\(member.name) reports a fork nobody made")
            }
            #expect(try SyncRemovalRace.knowsItWasRemoved(race.removed))
            for service in services {
                if let value = final[service] ?? nil {
                    #expect(written[service]?.contains(value) == true, "\(service) holds \(value), which no member wrote")
                }
                #expect(uncertain.contains(service) || (final[service] ?? nil) == (last[service] ?? nil),
                        "\(service) holds \((final[service] ?? nil) ?? "nothing"), not its last change \((last[service] ?? nil) ?? "(deleted)")")
            }
            // The removed member writes and tries to send it; then a write of a remaining member
            // reaching the other shows that one has read everything sent before.
            try race.removed.store(service: "after-removal", account: "user", password: "nobody-gets-this")
            let pass = try race.removed.run("sync", "run", "--once")
            #expect(pass.status != 0, "the removed member's pass fails: \(pass.errors)")
            try remaining[1].store(service: "after-healing", account: "user", password: "both-get-this")
            try eventually(30, "a write after healing reaches both remaining members") {
                try remaining[0].password(service: "after-healing", account: "user") == "both-get-this"
            }
        }
        for member in members where member !== race.removed {
            guard !(try SyncRemovalRace.reportsFork(member)) else { continue }
            for service in services + ["after-removal"] {
                if let value = try member.password(service: service, account: "user") {
                    #expect(!writtenAfterRemoval.contains(value) && value != "nobody-gets-this",
                            "\(member.name) holds \(value), written by \(race.removed.name) after its removal")
                }
            }
        }
        for member in members { member.stopAgent() }
        checked = true
    }
}
