import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The README's sync example is what a user types on two machines: each line runs here as
/// written, on the machine its comment names (two member folders), against a PostgreSQL
/// started for the test; lines ending in `&` run in the background as they would in a shell,
/// the approval uses the code the join printed, and a `# prints ...` line must print that
/// (a moment later: it is checked until it does, for at most 30 s).
@Suite("The README's sync example", .serialized)
struct ReadmeSyncTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    @Test func theReadmeSyncExampleWorksOnTwoMachines() async throws {
        let block = try #require(try DocumentationBlocks(contentsOf: Self.readme).blocks.first { $0.language == "sh sync" },
                                 "the README shows the sync example in a `sh sync` block")
        let server = try PostgresTestServer()
        defer { server.remove() }
        let (first, second) = (try SyncMember("first"), try SyncMember("second"))
        let variables = ["SYNC_SERVER": server.tcpAddress()]
        var background: [SpawnedProcess] = []
        defer {
            for (index, member) in [first, first, second, second].enumerated() {
                let log = member.home.appendingPathComponent("background-\(index).log")
                if let text = try? String(contentsOf: log, encoding: .utf8) { print("background \(index): \(text)") }
            }
            for process in background {
                process.kill(SIGTERM)
                _ = process.wait()
            }
        }
        var machine: SyncMember?
        var joinLog: URL?
        var ran = 0
        for line in block.text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("# on the first machine") { machine = first; continue }
            if line.hasPrefix("# on the second machine") { machine = second; continue }
            if line.hasPrefix("#") { continue }
            let member = try #require(machine, "a line before any '# on the ... machine' comment: \(line)")
            let parsed = DocumentationBlocks.shellLine(line)
            var command = parsed.command
            let expected = parsed.prints
            let inBackground = command.hasSuffix(" &")
            if inBackground { command = String(command.dropLast(2)) }
            try #require(command.hasPrefix("keychainctl "), "a line the test does not know how to run: \(line)")
            command = #""$0" "# + command.dropFirst("keychainctl ".count)
            if command.contains(" sync approve ") {
                // The code the joining machine printed, as the user reads it there.
                let log = try #require(joinLog, "the approval comes after a join")
                var code: String?
                try eventually(30, "the join prints its code") {
                    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                    code = text.split(separator: "\n").first { $0.contains("sync approve ") }?
                        .split(separator: " ").last.map(String.init)
                    return code != nil
                }
                let shown = try #require(code)
                command = command.replacingOccurrences(
                    of: #"approve [0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}"#, with: "approve \(shown)", options: .regularExpression)
            }
            if inBackground {
                let log = member.home.appendingPathComponent("background-\(background.count).log")
                if command.contains(" sync join ") { joinLog = log }
                background.append(try member.startShell(command, variables: variables, log: log))
            } else if let expected {
                try eventually(30, "'\(line)' prints \(expected)") {
                    try member.shell(command, variables: variables).output == expected + "\n"
                }
            } else {
                let outcome = try member.shell(command, variables: variables)
                #expect(outcome.status == 0, "\(line): \(outcome.errors)")
            }
            ran += 1
        }
        #expect(ran >= 7)
    }
}
