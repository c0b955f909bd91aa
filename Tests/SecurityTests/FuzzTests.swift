import Foundation
import SecItemFuzzing
import Security
import Testing
import TestTags
import TestSupport

/// A fixed-seed sample of the API fuzzer (the long run is Scripts/fuzz): generated
/// dictionaries through all four calls never crash, and every status is one Apple's API
/// gives for that call, by its parsing rules; a search that finds nothing is
/// errSecItemNotFound with a nil result.
@Suite struct FuzzTests {
    @Test(.tags(.slow), arguments: [1 as UInt64, 2, 3])
    func generatedDictionariesGetOnlyStatusesTheSpecNames(seed: UInt64) {
        let keychain = PrivateKeychain(accessGroups: ["fuzz.app", "fuzz.group"])
        var run = FuzzRun(seed: seed)
        keychain.run { run.run(cases: 1_500) }
        #expect(run.violations.isEmpty, "\(run.violations.joined(separator: "\n"))")
        // The sample must reach the store, not only the parser.
        let successes = run.counts.values.reduce(0) { $0 + ($1[errSecSuccess] ?? 0) }
        #expect(successes > 100, "\(run.report)")
    }
}
