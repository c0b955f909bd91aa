import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The README's walk-through for a server with no desktop (its `sh headless` block) is what
/// such a user types, so it runs here as written, for a new user: a scratch HOME and XDG
/// folders, no DISPLAY, no session bus, the package's programs first on a plain PATH. The
/// lines before `dbus-run-session -- ...` run each in its own shell; the lines after it are
/// typed into the shell that line starts (its standard input), as the user types them, each
/// followed by a line of the test's that prints a marker and `$?`, so that every line's output
/// and status are known. Every line must succeed and print what its `# prints ...` comment says.
///
/// The machine has GNOME Keyring installed (its activation file in /usr/share/dbus-1/services),
/// so the test also proves that the bus started our provider and never GNOME Keyring.
@Suite struct ReadmeHeadlessTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The programs the walk-through uses from this package, as a user has them on PATH.
    static let products = ["keychainctl", "keychain-secret-service", "git-credential-keychain", "docker-credential-keychain"]

    /// Requirement (the headless issue's "done when"): on a machine with no desktop, following
    /// the README, secret-tool stores and looks up through our provider, Python keyring sets
    /// and gets a password, git remembers a credential through our helper, and keychainctl sees
    /// the items, with only a user bus from dbus-run-session.
    @Test func theReadmeHeadlessWalkThroughWorksWithOnlyAUserBus() throws {
        let block = try #require(try DocumentationBlocks(contentsOf: Self.readme).blocks.first { $0.language == "sh headless" },
                                 "the README shows the headless walk-through in a `sh headless` block")
        let lines = block.text.split(separator: "\n").map(String.init)
            .filter { !DocumentationBlocks.shellLine($0).command.isEmpty }
        let sessionStarts = lines.indices.filter { DocumentationBlocks.shellLine(lines[$0]).command.hasPrefix("dbus-run-session -- ") }
        let session = try #require(sessionStarts.count == 1 ? sessionStarts.first : nil,
                                   "one line starts the session bus with dbus-run-session -- <shell>: \(sessionStarts)")
        // What the issue asks the walk-through to show.
        let text = block.text
        for step in ["keychain-secret-service --install", "secret-tool store", "secret-tool lookup", "keyring.set_password",
                     "keyring.get_password", "credential.helper keychain", "git credential approve", "git credential fill",
                     "keychainctl find-generic-password", "keychainctl find-internet-password"] {
            #expect(text.contains(step), "the walk-through shows \(step)")
        }

        let user = try NewUser()
        var printsChecked = 0
        // The lines before the session: each in its own shell, as typed at a login prompt.
        for line in lines[..<session] {
            let outcome = try user.shell(DocumentationBlocks.shellLine(line).command)
            #expect(outcome.status == 0, "\(line): \(outcome.errors)")
            if let expected = DocumentationBlocks.shellLine(line).prints {
                #expect(Self.trimmingOneNewline(outcome.output) == expected, "\(line)")
                printsChecked += 1
            }
        }

        // The session line as written, with the lines after it as what is typed into its
        // shell; after each line a marker with that line's exit status splits the output.
        let typed = lines[(session + 1)...]
        var script = ""
        for (index, line) in typed.enumerated() {
            script += line + "\n" + "printf '\\n\(Self.marker)\(index) %d\\n' \"$?\"\n"
        }
        let outcome = try user.shell(DocumentationBlocks.shellLine(lines[session]).command, input: script)
        #expect(outcome.status == 0, "the session (status 124: it hung): \(outcome.errors)")
        let outputs = Self.outputs(of: outcome.output, lines: typed.count)
        #expect(outputs.count == typed.count, "every typed line ran: \(outcome.output)\n\(outcome.errors)")
        for (line, output) in zip(typed, outputs) {
            #expect(output.status == 0, "\(line): \(outcome.errors)")
            if let expected = DocumentationBlocks.shellLine(line).prints {
                #expect(output.text == expected, "\(line)\n\(outcome.errors)")
                printsChecked += 1
            }
        }
        #expect(printsChecked >= 5)

        // Our provider answered: the bus started it over this user's login keychain (its one
        // line on the output it shares with the shell), and GNOME Keyring never ran for this
        // user (it makes its folder, $XDG_DATA_HOME/keyrings, when the bus starts it).
        let keychain = user.dataHome.appendingPathComponent("keychains/login.keychain-db").path
        #expect(outcome.output.contains("keychain-secret-service: serving org.freedesktop.secrets for the keychain \(keychain)\n"),
                "\(outcome.output)")
        let gnomeKeyrings = user.dataHome.appendingPathComponent("keyrings").path
        #expect(!FileManager.default.fileExists(atPath: gnomeKeyrings), "GNOME Keyring started: \(gnomeKeyrings)")
    }

    /// The marker the test prints after each typed line, before that line's exit status.
    static let marker = "@@readme-headless-line-"

    /// The output and exit status of each typed line, from the session's output. The lines
    /// the provider the bus started writes to that same output (`keychain-secret-service:
    /// ...`) are not any line's.
    static func outputs(of text: String, lines count: Int) -> [(text: String, status: Int32?)] {
        var results: [(text: String, status: Int32?)] = []
        var rest = Substring(text)
        for index in 0..<count {
            let marker = "\n" + Self.marker + "\(index) "
            guard let found = rest.range(of: marker) else { break }
            let own = rest[..<found.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("keychain-secret-service: ") }.joined(separator: "\n")
            let after = rest[found.upperBound...]
            let statusText = after.prefix { $0 != "\n" }
            results.append((trimmingOneNewline(own), Int32(statusText)))
            rest = after.dropFirst(statusText.count).dropFirst()
        }
        return results
    }

    /// `text` without its last newline: a program's one line, as `# prints` shows it
    /// (secret-tool prints a password without one).
    static func trimmingOneNewline<S: StringProtocol>(_ text: S) -> String {
        text.hasSuffix("\n") ? String(text.dropLast()) : String(text)
    }

    /// A user who just logged in to a server: a scratch HOME with nothing in it, the XDG
    /// folders a login sets, no desktop and no session bus, and this package's programs on a
    /// plain PATH before the system's.
    struct NewUser {
        let root = TestScratch.folder("readme-headless")
        var home: URL { root.appendingPathComponent("home") }
        var dataHome: URL { home.appendingPathComponent(".local/share") }
        var runtime: URL { root.appendingPathComponent("run") }
        var bin: URL { root.appendingPathComponent("bin") }

        init() throws {
            let files = FileManager.default
            try files.createDirectory(at: home, withIntermediateDirectories: true)
            // The runtime folder a login makes: the user's alone.
            try files.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try files.createDirectory(at: bin, withIntermediateDirectories: true)
            for product in ReadmeHeadlessTests.products {
                try files.createSymbolicLink(at: bin.appendingPathComponent(product),
                                             withDestinationURL: ProgramProcess(product).executable)
            }
        }

        /// The login's environment, and nothing of the test's: no DISPLAY, no
        /// DBUS_SESSION_BUS_ADDRESS, no keyring configuration. XDG_DATA_HOME is set to where HOME
        /// puts it because dbus-daemon finds the user's folder from the password database, not
        /// from HOME, so a scratch HOME alone would have the bus read the real user's services.
        /// GIT_TERMINAL_PROMPT=0: a credential git does not find fails instead of asking on a
        /// terminal the test does not have.
        var environment: [String: String] {
            var environment = [
                "HOME": home.path,
                "XDG_DATA_HOME": dataHome.path,
                "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                "XDG_RUNTIME_DIR": runtime.path,
                "PATH": bin.path + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                "LANG": "C.UTF-8",
                "GIT_TERMINAL_PROMPT": "0",
            ]
            for name in ["USER", "LOGNAME"] { environment[name] = ProcessInfo.processInfo.environment[name] }
            return environment
        }

        /// Runs `command` with /bin/sh in this user's environment, in HOME as a login shell starts, with `input` as its
        /// standard input, under coreutils' `timeout`: a line that waits for what never comes
        /// (a prompt) ends the run with status 124 after five minutes instead of hanging the test.
        func shell(_ command: String, input: String = "") throws -> (status: Int32, output: String, errors: String) {
            let folder = root.appendingPathComponent("io-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let files = ["in", "out", "err"].map { folder.appendingPathComponent($0).path }
            try Data(input.utf8).write(to: URL(fileURLWithPath: files[0]))
            let process = try SpawnedProcess(
                "/usr/bin/timeout", ["--kill-after=10", "300", "/bin/sh", "-c", "cd && " + command], environment: environment,
                stdin: .open(files[0], O_RDONLY),
                stdout: .open(files[1], O_WRONLY | O_CREAT | O_TRUNC),
                stderr: .open(files[2], O_WRONLY | O_CREAT | O_TRUNC))
            let termination = process.wait()
            return (termination.status, try String(contentsOfFile: files[1], encoding: .utf8),
                    try String(contentsOfFile: files[2], encoding: .utf8))
        }
    }
}
