import Foundation
import KeychainProof
import Security
import Testing
import TestTags
import TestSupport

/// Secrets at rest and in output (issue 3, scope 5; the long run is Scripts/at-rest).
@Suite struct SecretsInOutputTests {
    @Test func noMarkerIsInAnyFileOfTheKeychainFolder() {
        let keychain = PrivateKeychain(accessGroups: ["proof.at-rest"])
        var run = AtRestRun()
        run.items = 300
        let outcome = keychain.run { run.run(folder: keychain.directory) }
        #expect(outcome.problems.isEmpty, "\(outcome.problems.joined(separator: "\n"))")
        #expect(outcome.passed, "\(outcome.totals)")
    }

    @Test("No marker is in the logs at trace level or in the status messages", .tags(.slow))
    func noMarkerIsLoggedAtAnyLevel() throws {
        let dataHome = TestScratch.folder("secrets-in-output")
        var probe = try WorkerProcess(HelperProcess.executable, ["log-probe", "20", "7"], dataHome: dataHome,
                                      accessGroups: "proof.logs")
        let lines = probe.finish()
        #expect(lines.last == "PASS", "\(lines.joined(separator: "\n"))")
        #expect(probe.terminationStatus == 0)
        // The probe reached the failures it is there for.
        let statuses = lines.first { $0.hasPrefix("statuses ") } ?? ""
        for status in [errSecDuplicateItem, errSecItemNotFound, errSecParam, errSecDecode, errSecNotAvailable, errSecMissingEntitlement,
                       errSecAuthFailed, errSecInteractionNotAllowed] {
            #expect(statuses.contains("\(status)"), "\(statuses)")
        }
    }
}
