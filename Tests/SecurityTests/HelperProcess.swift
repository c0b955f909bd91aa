import Foundation
import TestSupport

/// Runs the KeychainTestHelper executable, built beside the test bundle, as another process.
struct HelperProcess {
    /// The helper's path: the tests' own build folder.
    static var executable: URL { ProgramProcess("KeychainTestHelper").executable }

    /// Starts the helper with `arguments`; `dataHome` and `accessGroups` set the keychain
    /// variables, `more` adds others. Its standard output is a pipe.
    static func start(_ arguments: [String], dataHome: URL?, accessGroups: String?,
                      executable: URL = executable, more: [String: String] = [:]) throws -> SpawnedProcess {
        var environment = ProcessInfo.processInfo.environment.merging(more) { $1 }
        environment["XDG_DATA_HOME"] = dataHome?.path
        environment["KEYCHAIN_ACCESS_GROUPS"] = accessGroups
        return try SpawnedProcess(executable.path, arguments, environment: environment, stdout: .pipe)
    }

    /// Runs the helper to its end and returns its trimmed standard output.
    static func run(_ arguments: [String], dataHome: URL?, accessGroups: String?,
                    executable: URL = executable, more: [String: String] = [:]) throws -> String {
        finish(try start(arguments, dataHome: dataHome, accessGroups: accessGroups, executable: executable, more: more))
    }

    /// Reads the helper's output to its end, waits for it, and returns the output trimmed.
    static func finish(_ process: SpawnedProcess) -> String {
        let output = process.readOutputToEnd()
        process.wait()
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
