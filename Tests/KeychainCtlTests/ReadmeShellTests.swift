import Foundation
import Testing
import TestSupport

/// The README's shell blocks are what a new user types first, so they run here as written:
/// each line runs in a shell against the built keychainctl on a private keychain folder and
/// must succeed and print what its `# prints ...` comment says. `Scripts/keychainctl` stands
/// for the built program (the script's own building and fast path are SetUpScriptTests'
/// part) and `Scripts/test` is this very test run, so that line alone is not run again.
@Suite struct ReadmeShellTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    @Test func everyShellLineOfTheReadmeRunsAndPrintsWhatItSays() throws {
        let blocks = try DocumentationBlocks(contentsOf: Self.readme).blocks.filter { $0.language == "sh" }
        #expect(blocks.count >= 2, "the Quick start and the keychainctl section each show a shell block")
        let keychainctl = Keychainctl()
        var ran = 0
        for line in blocks.flatMap({ $0.text.split(separator: "\n").map(String.init) }) {
            let parsed = DocumentationBlocks.shellLine(line)
            var command = parsed.command
            let expected = parsed.prints
            if command == "Scripts/test" { continue }
            let program = #""$0" "#
            if command.hasPrefix("Scripts/keychainctl ") {
                command = program + command.dropFirst("Scripts/keychainctl ".count)
            }
            command = command.replacingOccurrences(of: "| keychainctl ", with: "| " + program)
            #expect(!command.contains("keychainctl "), "a line the test does not know how to run: \(line)")
            // The token a CI job would have in its environment.
            let outcome = try keychainctl.shell("TOKEN=ci-token-value; " + command)
            #expect(outcome.status == 0, "\(line): \(outcome.errors)")
            if let expected { #expect(outcome.output == expected + "\n", "\(line)") }
            ran += 1
        }
        #expect(ran >= 3)
        // The token piped in is what was stored.
        #expect(try keychainctl("find-generic-password", "-a", "ci", "-s", "example.com", "-w").output == "ci-token-value\n")
    }
}
