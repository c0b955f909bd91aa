import Foundation
import Testing
import TestSupport

/// Robustness under random and malformed D-Bus calls: a short fixed-seed sample of the fuzzer
/// in Tests/SecretServiceFuzz (Python over jeepney), whose long run is
/// `Scripts/fuzz-secret-service --seconds N`.
@Suite struct FuzzSampleTests {
    /// The fuzzer's script, beside this test folder.
    static let fuzzer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SecretServiceFuzz/fuzz_secret_service.py")

    /// Bad input never crashes, hangs, leaks memory or secrets: after 250 fixed-seed calls
    /// (wrong signatures, huge arrays, random paths, sessions opened and dropped, secrets of
    /// random sizes read back at once) the provider is up, answers a normal store and lookup,
    /// returned every secret as stored, and wrote none of them to its standard error.
    @Test func aFixedSeedFuzzSampleLeavesTheProviderServingAndQuiet() throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let outcome = try bus.run("/usr/bin/python3", [
            Self.fuzzer.path, "--provider", ProgramProcess("keychain-secret-service").executable.path,
            "--calls", "250", "--seed", "1"])
        let verdict = outcome.output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errors)")
        #expect(verdict.hasPrefix("verdict: PASS "), "\(outcome.output)\(outcome.errors)")
    }
}
