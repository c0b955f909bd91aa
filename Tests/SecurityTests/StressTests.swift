import Foundation
import KeychainProof
import Security
import Testing
import TestTags
import TestSupport

/// A short sample of the multi-process stress run (issue 3, scope 1; the long run is
/// Scripts/stress): four processes on one keychain for two seconds.
@Suite struct StressTests {
    @Test("Concurrent processes: every acknowledged write is there, racing adds have one winner", .tags(.slow))
    func concurrentProcessesLoseNothingAndRacesHaveOneWinner() throws {
        let dataHome = TestScratch.folder("stress")
        var run = StressRun(executable: HelperProcess.executable, dataHome: dataHome)
        run.seconds = 2
        let outcome = try run.run()
        #expect(outcome.problems.isEmpty, "\((outcome.problems + outcome.workerLog).joined(separator: "\n"))")
        #expect(outcome.integrity == "ok")
        // The sample must have done real work in every kind, and contended.
        for kind in ["add", "find", "update", "delete", "race", "race-find"] {
            #expect(outcome.operations[kind, default: 0] > 0, "no \(kind): \(outcome.totals)")
        }
        #expect(outcome.raceAttempts > outcome.raceKeys, "no key was contended: \(outcome.totals)")
        #expect(outcome.itemsVerified > 0)
    }
}
