// Fuzzes the four SecItem functions with generated dictionaries (issue 3, scope 3).
//
//   Scripts/fuzz [--cases N] [--seed S]      (default: 100,000 cases, a random seed)
//
// Runs in a private keychain in a temporary folder. Prints the statuses by call, any case
// that broke a rule, and a last line that is the verdict. A crash or hang is the run not
// reaching that line.
import Foundation
import SecItemFuzzing
import Security

var cases = 100_000
var seed = UInt64.random(in: 0...UInt64(UInt32.max))
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--cases": cases = arguments.popFirst().flatMap { Int($0) } ?? cases
    case "--seed": seed = arguments.popFirst().flatMap { UInt64($0) } ?? seed
    default:
        FileHandle.standardError.write(Data("usage: keychain-fuzz [--cases N] [--seed S]\n".utf8))
        exit(2)
    }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-fuzz-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
print("fuzzing \(cases) cases with seed \(seed)")
let start = Date()
var run = FuzzRun(seed: seed)
KeychainEnvironment.withValue(KeychainEnvironment(directory: directory, accessGroups: ["fuzz.app", "fuzz.group"])) {
    var done = 0
    while done < cases {
        let chunk = min(10_000, cases - done)
        run.run(cases: chunk)
        done += chunk
        print("  \(done) cases, \(run.violations.count) violations, \(Int(Date().timeIntervalSince(start))) s")
    }
}
print(run.report)
for violation in run.violations { print("violation: \(violation)") }
let verdict = run.violations.isEmpty ? "PASS" : "FAIL"
print("\(verdict): \(run.cases) cases, \(run.violations.count) violations, seed \(seed), \(Int(Date().timeIntervalSince(start))) s")
exit(run.violations.isEmpty ? 0 : 1)
