import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestTags
import TestSupport

/// What keychainctl says about the files under it: a changed machine identity (a cloned
/// virtual machine, a container) is reported, once per process, with what to do; a keychain
/// in a folder others may write is refused with the reason, and the folder is left as it is.
@Suite struct MachineAndFolderCommandTests {
    let keychainctl = Keychainctl()
    /// Its own machine secret (XDG_STATE_HOME) and machine id file (the tests' seam).
    let stateHome = TestScratch.folder("keychainctl-state")
    let machineID = TestScratch.folder("keychainctl-machine-id")

    func run(_ arguments: String...) throws -> ProgramProcess.Outcome {
        try keychainctl.program.run(arguments, dataHome: keychainctl.dataHome, environment: [
            "XDG_STATE_HOME": stateHome.path, "KEYCHAIN_MACHINE_ID_FILE": machineID.path,
        ])
    }

    func setMachineID(_ id: String) throws {
        try FileManager.default.createDirectory(at: machineID.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("\(id)\n".utf8).write(to: machineID)
    }

    static let changed = "changed since the machine secret was made"

    func warnings(in errors: String) -> [Substring] {
        errors.split(separator: "\n").filter { $0.contains(Self.changed) }
    }

    @Test("a changed machine id is logged once per process at warning level, with what it means and what to do", .tags(.slow))
    func changedMachineIDIsReported() throws {
        try setMachineID("0123456789abcdef0123456789abcdef")
        #expect(try run("create-keychain", "-p", "pw", "work").status == 0)
        let same = try run("unlock-keychain", "-p", "pw", "work")
        #expect(same.status == 0)
        #expect(warnings(in: same.errors).isEmpty)

        try setMachineID("fedcba9876543210fedcba9876543210")
        let moved = try run("unlock-keychain", "-p", "pw", "work")
        #expect(moved.status == 0)
        // Three ThisDeviceOnly class keys fail to open, but the warning comes once.
        let lines = warnings(in: moved.errors)
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.contains("warning"))
        #expect(line.contains("ThisDeviceOnly items made before the change no longer open here"))
        #expect(line.contains("restore the old \(machineID.path) to read them, or delete and re-add them"))

        // The old id back: the items open again, and there is nothing to report.
        try setMachineID("0123456789abcdef0123456789abcdef")
        let restored = try run("unlock-keychain", "-p", "pw", "work")
        #expect(restored.status == 0)
        #expect(warnings(in: restored.errors).isEmpty)
        #expect(!restored.errors.contains("ThisDeviceOnly"))
    }

    @Test("a keychain in a folder others may write (sticky, like /tmp) is refused with the reason; the folder keeps its mode")
    func keychainInSharedFolderIsRefused() throws {
        try setMachineID("0123456789abcdef0123456789abcdef")
        let shared = TestScratch.folder("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        #expect(chmod(shared.path, 0o1777) == 0)
        let outcome = try run("create-keychain", "-p", "pw", shared.appendingPathComponent("ci.keychain-db").path)
        #expect(outcome.status == 53)   // errSecNotAvailable, -25291
        #expect(outcome.errors == "keychainctl: SecKeychainCreate \(shared.appendingPathComponent("ci.keychain-db").path): "
            + "the folder \(shared.path) belongs to another user or others may write in it (mode 1777); a keychain's folder "
            + "must be writable by you alone (No keychain is available. You may need to restart your computer.)\n")
        var status = stat()
        #expect(stat(shared.path, &status) == 0 && status.st_mode & 0o7777 == 0o1777)
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared.path).isEmpty)
    }
}
