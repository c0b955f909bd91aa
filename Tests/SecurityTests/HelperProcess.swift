import Foundation

/// Runs the KeychainTestHelper executable, built beside the test bundle, as another process.
struct HelperProcess {
    /// The helper's path: the tests' own build folder.
    static var executable: URL {
        let tests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return tests.deletingLastPathComponent().appendingPathComponent("KeychainTestHelper")
    }

    /// Starts the helper with `arguments`; `environment` replaces the keychain variables.
    static func start(_ arguments: [String], dataHome: URL?, accessGroups: String?,
                      executable: URL = executable, more: [String: String] = [:]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.merging(more) { $1 }
        environment["XDG_DATA_HOME"] = dataHome?.path
        environment["KEYCHAIN_ACCESS_GROUPS"] = accessGroups
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return (process, output)
    }

    /// Runs the helper to its end and returns its trimmed standard output.
    static func run(_ arguments: [String], dataHome: URL?, accessGroups: String?,
                    executable: URL = executable, more: [String: String] = [:]) throws -> String {
        let (process, output) = try start(arguments, dataHome: dataHome, accessGroups: accessGroups,
                                          executable: executable, more: more)
        return finish(process, output)
    }

    static func finish(_ process: Process, _ output: Pipe) -> String {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
