import Foundation
import TestSupport

/// Runs an example program as a user would: its own process, answers on standard input,
/// and a private keychain folder (XDG_DATA_HOME) so that tests never touch the user's.
struct ExampleProcess {
    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    let executable: URL

    /// An example from the build folder, where SwiftPM puts it beside the test bundle.
    init(_ product: String) {
        let tests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        executable = tests.deletingLastPathComponent().appendingPathComponent(product)
    }

    private init(executable: URL) {
        self.executable = executable
    }

    /// A copy of this example in `folder`, with `entitlements` beside it as
    /// `<name>.entitlements` when given: the program then holds that file's access groups.
    /// A copy, so that the tests never leave entitlements in the build folder.
    func installed(in folder: URL, entitlements: URL?) throws -> ExampleProcess {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent(executable.lastPathComponent)
        try FileManager.default.copyItem(at: executable, to: copy)
        if let entitlements {
            try FileManager.default.copyItem(
                at: entitlements, to: folder.appendingPathComponent(copy.lastPathComponent + ".entitlements"))
        }
        return ExampleProcess(executable: copy)
    }

    /// Runs the program to its end with `input` as its standard input.
    ///
    /// Input and output go through files rather than pipes, so that a program that exits
    /// early, or writes much, can never block the test.
    func run(_ arguments: [String] = [], input: String = "", dataHome: URL) throws -> Outcome {
        let scratch = TestScratch.folder("example-io")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let files = ["in", "out", "err"].map { scratch.appendingPathComponent($0) }
        try Data(input.utf8).write(to: files[0])
        for file in files.dropFirst() { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        // The access groups come from the entitlements file or the executable's name.
        environment["KEYCHAIN_ACCESS_GROUPS"] = nil
        process.environment = environment
        let handles = try [FileHandle(forReadingFrom: files[0]),
                           FileHandle(forWritingTo: files[1]), FileHandle(forWritingTo: files[2])]
        process.standardInput = handles[0]
        process.standardOutput = handles[1]
        process.standardError = handles[2]
        try process.run()
        process.waitUntilExit()
        for handle in handles { try handle.close() }

        return Outcome(status: process.terminationStatus,
                       output: try String(contentsOf: files[1], encoding: .utf8),
                       errors: try String(contentsOf: files[2], encoding: .utf8))
    }
}

/// A fresh folder name in the test process's scratch folder.
func temporaryFolder(_ purpose: String) -> URL {
    TestScratch.folder(purpose)
}
