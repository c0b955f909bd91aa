import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program of this package as a user would: its own process, answers on standard
/// input, and a private keychain folder (XDG_DATA_HOME) so that tests never touch the user's.
public struct ProgramProcess: Sendable {
    public struct Outcome: Sendable {
        public let status: Int32
        public let output: String
        public let errors: String
    }

    public let executable: URL

    /// A product from the build folder, where SwiftPM puts it beside the test bundle.
    public init(_ product: String) {
        let tests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        executable = tests.deletingLastPathComponent().appendingPathComponent(product)
    }

    /// A program at `executable`, such as a client of this package's programs (`/usr/bin/git`).
    public init(executable: URL) {
        self.executable = executable
    }

    /// A copy of this program in `folder`, with `entitlements` beside it as
    /// `<name>.entitlements` when given: the program then holds that file's access groups.
    /// A copy, so that the tests never leave entitlements in the build folder.
    public func installed(in folder: URL, entitlements: URL?) throws -> ProgramProcess {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent(executable.lastPathComponent)
        try FileManager.default.copyItem(at: executable, to: copy)
        if let entitlements {
            try FileManager.default.copyItem(
                at: entitlements, to: folder.appendingPathComponent(copy.lastPathComponent + ".entitlements"))
        }
        return ProgramProcess(executable: copy)
    }

    /// The environment of a run: this process's, with the keychain folder under `dataHome`
    /// and the access groups left to the program (its entitlements file or its name), then
    /// `overrides` (nil removes a variable).
    public static func environment(dataHome: URL, overrides: [String: String?] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        environment["KEYCHAIN_ACCESS_GROUPS"] = nil
        for (name, value) in overrides { environment[name] = value }
        return environment
    }

    /// Runs the program to its end with `input` as its standard input.
    ///
    /// Input and output go through files rather than pipes, so that a program that exits
    /// early, or writes much, can never block the test.
    public func run(_ arguments: [String] = [], input: String = "", dataHome: URL,
                    environment overrides: [String: String?] = [:]) throws -> Outcome {
        let scratch = TestScratch.folder("program-io")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let files = ["in", "out", "err"].map { scratch.appendingPathComponent($0) }
        try Data(input.utf8).write(to: files[0])
        for file in files.dropFirst() { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }

        let process = try SpawnedProcess(
            executable.path, arguments, environment: Self.environment(dataHome: dataHome, overrides: overrides),
            stdin: .open(files[0].path, O_RDONLY),
            stdout: .open(files[1].path, O_WRONLY | O_TRUNC),
            stderr: .open(files[2].path, O_WRONLY | O_TRUNC))
        let termination = process.wait()

        return Outcome(status: termination.status,
                       output: try String(contentsOf: files[1], encoding: .utf8),
                       errors: try String(contentsOf: files[2], encoding: .utf8))
    }
}
