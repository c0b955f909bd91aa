import Foundation
import Security
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The built keychainctl, run as a process on a private keychain folder: each value of this
/// type is a user with an empty `$XDG_DATA_HOME`.
struct Keychainctl {
    let program = ProgramProcess("keychainctl")
    let dataHome = TestScratch.folder("keychainctl")

    /// Runs `keychainctl arguments...` with `input` on standard input.
    @discardableResult
    func callAsFunction(_ arguments: String..., input: String = "") throws -> ProgramProcess.Outcome {
        try program.run(arguments, input: input, dataHome: dataHome)
    }

    /// Runs `script` with /bin/sh, in which `$0` is keychainctl, standard input /dev/null:
    /// for what a Swift string cannot pass (an argument that is not UTF-8) and what an input
    /// file cannot stand for (standard input closed, a directory, an endless device).
    func shell(_ script: String) throws -> (status: Int32, output: String, errors: String) {
        let scratch = TestScratch.folder("shell-io")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try SpawnedProcess.runToEnd("/bin/sh", ["-c", script, program.executable.path],
                                           environment: ProgramProcess.environment(dataHome: dataHome), outputIn: scratch)
    }

    /// The folder of the user's keychains.
    var keychains: URL { dataHome.appendingPathComponent("keychains") }

    /// The login keychain's database, as the attribute blocks name it.
    var loginPath: String { path(of: "login") }

    /// The database of the keychain `name` in the user's folder.
    func path(of name: String) -> String { keychains.appendingPathComponent("\(name).keychain-db").path }

    /// The line `list-keychains` and `default-keychain` print for the keychain `name`.
    func line(_ name: String) -> String { "    \"\(path(of: name))\"\n" }

    /// Runs `body`'s SecItem calls in this user's keychain `name`, as another program whose
    /// access group is `group`.
    func asProgram<T>(_ group: String, keychain name: String = "login", _ body: () throws -> T) rethrows -> T {
        try KeychainEnvironment.withValue(
            KeychainEnvironment(directory: keychains, keychainName: name, accessGroups: [group]), operation: body)
    }

    /// Standard error after a new password was typed differently three times.
    static let threeMismatches = """
        passwords don't match
        passwords don't match
        passwords don't match
        keychainctl: the passwords did not match in three tries

        """

    /// Starts `keychainctl arguments...` on a terminal, for its prompts.
    func onTerminal(_ arguments: String...) throws -> TerminalSession {
        try TerminalSession(program, arguments, environment: ProgramProcess.environment(dataHome: dataHome))
    }

    /// Runs `keychainctl arguments...` on a terminal to its end, typing each answer once its
    /// prompt shows, as a user would.
    func onTerminal(_ arguments: String..., answering dialog: [(prompt: String, answer: String)]) throws
        -> TerminalSession.Outcome
    {
        let session = try TerminalSession(program, arguments, environment: ProgramProcess.environment(dataHome: dataHome))
        for (prompt, answer) in dialog {
            try session.waitFor(prompt)
            session.type(answer)
        }
        return try session.finish()
    }
}

extension String {
    /// The lines of an attribute block with the two dates, which change with every run,
    /// replaced by `<date>` once checked to have the `<timedate>` form.
    var withDatesChecked: [String] {
        split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let text = String(line)
            guard text.hasPrefix("    \"cdat\"<timedate>=") || text.hasPrefix("    \"mdat\"<timedate>=") else { return text }
            let value = text.dropFirst("    \"cdat\"<timedate>=".count)
            // 0x and the 16 bytes in hex, two spaces, then the same bytes quoted, NUL as \000.
            let parts = value.components(separatedBy: "  ")
            guard parts.count == 2, parts[0].count == 34, parts[1].count == 21, parts[1].hasSuffix("Z\\000\""),
                  Data(parts[1].dropFirst().prefix(15).utf8).map({ String(format: "%02X", $0) }).joined() + "00"
                    == parts[0].dropFirst(2)
            else { return "malformed date: " + text }
            return String(text.prefix("    \"cdat\"<timedate>=".count)) + "<date>"
        }
    }
}
