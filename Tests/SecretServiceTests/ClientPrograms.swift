import Foundation
import TestSupport

/// What the tests of real clients share: running a client on the private bus with a time
/// limit, and building a client from C sources with the system's compiler.
extension PrivateSessionBus {
    /// Runs `program` on this bus to its end, with `extra` variables added to its
    /// environment, under coreutils' `timeout`: a client that waits for something the
    /// provider never sends (a prompt) ends with status 124 after `seconds`, failing the test
    /// instead of hanging it.
    func runClient(_ program: String, _ arguments: [String], input: String = "", environment extra: [String: String?] = [:],
                   seconds: Int = 120) throws -> ProgramProcess.Outcome {
        var environment = extra
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return try ProgramProcess(executable: URL(fileURLWithPath: "/usr/bin/timeout")).run(
            ["--kill-after=10", String(seconds), program] + arguments, input: input, dataHome: dataHome,
            environment: environment)
    }
}

/// A C program built from `sources` with `cc` and the flags of the pkg-config `packages`, in
/// a scratch folder; the build's messages when it fails.
enum CProgram {
    static func build(_ name: String, sources: [URL], packages: [String]) -> Result<URL, BuildFailure> {
        let folder = TestScratch.folder(name)
        let executable = folder.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let environment = ProcessInfo.processInfo.environment
            let flags = try SpawnedProcess.runToEnd(
                "/usr/bin/pkg-config", ["--cflags", "--libs"] + packages, environment: environment, outputIn: folder)
            guard flags.status == 0 else {
                return .failure(BuildFailure(message: "pkg-config \(packages.joined(separator: " ")): \(flags.errors)"))
            }
            let words = flags.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            let compiled = try SpawnedProcess.runToEnd(
                "/usr/bin/cc", ["-Wall", "-O1", "-o", executable.path] + sources.map(\.path) + words,
                environment: environment, outputIn: folder)
            guard compiled.status == 0 else { return .failure(BuildFailure(message: compiled.errors)) }
            return .success(executable)
        } catch {
            return .failure(BuildFailure(message: "\(error)"))
        }
    }

    struct BuildFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { "cannot build the C client: \(message)" }
    }
}

/// The folder of the C clients' sources, Tests/SecretServiceClients.
let clientSources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("SecretServiceClients")
