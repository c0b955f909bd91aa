import Foundation
import KeychainProof
import Security
import Testing
import TestTags
import TestSupport

/// Truncated files and a missing device key (issue 3, scope 4; the long run is
/// Scripts/tamper): a fresh process reading the damaged copy gets errSecDecode,
/// errSecNotAvailable or errSecItemNotFound, never another item's secret, never a crash,
/// and with the WAL damaged every item of the intact database file still reads correctly.
@Suite struct CorruptionTests {
    @Test(.tags(.slow)) func truncatedFilesAndAMissingDeviceKeyGiveClearStatuses() throws {
        let work = TestScratch.folder("corruption")
        var run = CorruptionRun(executable: HelperProcess.executable, workFolder: work)
        run.items = 40
        let sizes = try run.setUp()
        #expect(sizes.log > 0, "the keychain to damage has no WAL")
        let cases = CorruptionCase.standard(databaseSize: sizes.database, logSize: sizes.log, pageSize: sizes.pageSize)
        let outcome = try run.run(cases)
        #expect(outcome.problems.isEmpty, "\(outcome.problems.joined(separator: "\n"))")
        #expect(outcome.cases == cases.count)
        #expect(outcome.statuses[errSecSuccess, default: 0] > 0, "\(outcome.totals)")
        #expect(outcome.statuses[errSecNotAvailable, default: 0] > 0, "\(outcome.totals)")
    }
}
