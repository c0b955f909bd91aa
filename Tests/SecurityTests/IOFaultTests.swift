import Foundation
import KeychainProof
import Testing
import TestTags
import TestSupport

/// A short sample of the I/O-fault run (the long run is Scripts/io-faults): a full disk,
/// a failing disk and a short write, at a write or at a sync of the keychain's files.
@Suite struct IOFaultTests {
    @Test("During a disk fault every write call gives errSecDiskFull or errSecIO, nothing committed is lost, and the keychain works after (bad input: a documented status, never a half-applied change)", .tags(.slow),
          arguments: IOFault.all)
    func callsDuringADiskFaultFailCleanlyAndLoseNothing(fault: IOFault) throws {
        let work = TestScratch.folder("io-faults")
        var run = IOFaultRun(executable: HelperProcess.executable, work: work,
                             shim: try PowerCutShim.build(into: work.appendingPathComponent("shim")))
        run.faults = [fault]
        run.positions = [1, 3]
        let outcome = try run.run()
        #expect(outcome.problems.isEmpty, "\(outcome.problems.joined(separator: "\n"))")
        #expect(outcome.succeeded, "\(outcome.totals)")
        #expect(outcome.failedCalls >= 3 * run.positions.count, "\(outcome.totals)")
    }
}
