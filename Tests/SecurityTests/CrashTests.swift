import Foundation
import KeychainProof
import Security
import Testing
import TestTags
import TestSupport

/// A short sample of the crash run (issue 3, scope 2; the long run is Scripts/crash): a
/// writer killed with SIGKILL at random moments and during multi-item updates and deletes,
/// each kill followed by a check in a fresh process.
@Suite struct CrashTests {
    @Test("After SIGKILL: acknowledged changes are intact, a multi-item update or delete is all or nothing")
    func killedWritersLoseNothingAcknowledgedAndChangeAllOrNothing() throws {
        let dataHome = TestScratch.folder("crash")
        var run = CrashRun(executable: HelperProcess.executable, dataHome: dataHome)
        run.iterations = 9
        run.groupSize = 60
        let outcome = try run.run()
        #expect(outcome.problems.isEmpty, "\(outcome.problems.joined(separator: "\n"))")
        #expect(outcome.verified == 9)
        #expect(outcome.acknowledged > 0, "\(outcome.totals)")
        // Two iterations of three kill during a multi-item call, announced just before it.
        #expect(outcome.killedDuring("update-all") + outcome.killedDuring("delete-all") > 0, "\(outcome.totals)")
    }

    /// The keychain crash run's sample (the long run is Scripts/crash-keychain): the keychain
    /// opens with the old or the new password, never neither or both; a created keychain is
    /// absent or whole with its password; an archive is whole; an import all or nothing.
    @Test("After SIGKILL during a password change, a keychain's creation or an archive export or import, with item traffic from another process: the old or the new state, whole, and every acknowledged item", .tags(.slow))
    func killedKeychainChangesLeaveTheOldOrTheNewState() throws {
        let dataHome = TestScratch.folder("crash-keychain")
        var run = CrashKeychainRun(executable: HelperProcess.executable, dataHome: dataHome,
                                   keychainctl: ProgramProcess("keychainctl").executable)
        run.iterations = 6
        var lines: [String] = []
        let outcome = try run.run { lines.append($0) }
        #expect(outcome.passed, "\(outcome.problems.joined(separator: "\n"))\n\(lines.joined(separator: "\n"))")
        #expect(outcome.verified == 6)
        #expect(outcome.acknowledged > 0, "\(outcome.totals)")
    }
}
