import Foundation
import KeychainProof
import Testing
import TestTags
import TestSupport

/// A short sample of the power-loss run (the long run is Scripts/power-loss): a writer's
/// power is cut at every sync point of a few changes, while another process holds the
/// keychain open, and the folder a power cut leaves (only what was fsynced, names only
/// where the folder was fsynced) is checked in a fresh process.
@Suite struct PowerLossTests {
    /// A run of the helper in a new scratch folder, with the shim built there.
    func powerCutRun(_ purpose: String) throws -> PowerCutRun {
        let work = TestScratch.folder(purpose)
        return PowerCutRun(executable: HelperProcess.executable, work: work,
                           shim: try PowerCutShim.build(into: work.appendingPathComponent("shim")))
    }

    @Test("A power cut at any sync point, with another process holding the keychain open, loses no acknowledged change and half-applies none (durability: synchronous=FULL)", .tags(.slow))
    func powerCutsAtEverySyncPointLoseNothingAcknowledged() throws {
        var run = try powerCutRun("power-loss")
        // Item adds, updates and deletes, a password set, changed and removed, new auto-lock
        // settings, a lock and unlock, and an archive import (PowerCutWriter's first changes).
        run.operations = 9
        run.setupOperations = 4
        let outcome = try run.run()
        #expect(outcome.problems.isEmpty, "\(outcome.problems.joined(separator: "\n"))")
        #expect(outcome.passed, "\(outcome.totals)")
        // Every acknowledged change but the lock and unlock (which write nothing) makes at least
        // one sync point, as a commit that syncs nothing is not durable; so the power was cut
        // during each kind of change.
        #expect(outcome.syncPoints >= run.operations - 1, "\(outcome.totals)")
        for kind in ["password", "import", "settings"] {
            #expect(outcome.pending[kind] != nil, "no cut during \(kind): \(outcome.totals)")
        }
    }

    @Test("A power cut while the keychain is created leaves one that opens and holds what was acknowledged (durability: the folder fsynced after files are created or renamed)")
    func powerCutsWhileCreatingTheKeychainLeaveOneThatOpens() throws {
        var run = try powerCutRun("power-loss-create")
        run.operations = 3
        run.creationEvery = 1
        let outcome = try run.run()
        #expect(outcome.problems.isEmpty, "\(outcome.problems.joined(separator: "\n"))")
        #expect(outcome.passed, "\(outcome.totals)")
        // Creating the database, its key and the log syncs each, and the folder.
        #expect(outcome.syncPoints > run.operations, "\(outcome.totals)")
    }

    @Test("In a process that keeps the keychain open, a power cut after any acknowledged delete or update leaves the superseded sealed blobs in no file (the log's truncation is synced before the call returns)")
    func powerCutsInALongLivedProcessLeaveNothingSuperseded() throws {
        let work = TestScratch.folder("power-loss-long-lived")
        let shim = try PowerCutShim.build(into: work.appendingPathComponent("shim"))
        let outcome = try LongLivedPowerCut.runWorker(executable: HelperProcess.executable, work: work, shim: shim, calls: 6)
        #expect(outcome.passed, "\(outcome.line)")
        // Six calls, each superseding at least the item's secret.
        let fields = outcome.line.split(separator: " ")
        #expect(fields.count == 3 && (Int(fields[2]) ?? 0) >= 6, "\(outcome.line)")
    }

    @Test("The shim's durable image keeps only fsynced contents, under names whose folder was fsynced (the power-loss model)")
    func theShimKeepsOnlySyncedContentsAndNames() throws {
        let work = TestScratch.folder("power-loss-shim")
        let shim = try PowerCutShim.build(into: work.appendingPathComponent("shim"))
        let folder = work.appendingPathComponent("watched"), image = work.appendingPathComponent("image")
        for made in [folder, image] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        try Data("old".utf8).write(to: folder.appendingPathComponent("kept"))
        // A shell, as an independent client: it writes with the shell's own calls, and syncs with
        // the coreutils `sync FILE` (fsync) once for the file's new contents and once for the folder.
        let script = """
            printf synced > "$1/kept" && sync "$1/kept" && printf later > "$1/kept" \
            && printf new > "$1/named" && sync "$1/named" && sync "$1" \
            && printf unnamed > "$1/unnamed" && sync "$1/unnamed"
            """
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in shim.environment(watching: folder, image: image) { environment[name] = value }
        let shell = try SpawnedProcess("/bin/sh", ["-c", script, "sh", folder.path], environment: environment)
        #expect(shell.wait().status == 0)
        let after = work.appendingPathComponent("after")
        try PowerCutShim.restore(image: image, into: after)
        func contents(_ name: String) -> String? {
            FileManager.default.contents(atPath: after.appendingPathComponent(name).path).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(contents("kept") == "synced")
        #expect(contents("named") == "new")
        // Its contents were synced, but its name never was: the folder was synced before it existed.
        #expect(contents("unnamed") == nil)
    }
}
