import Foundation
import Security
import Testing
import TestSupport

/// docker-credential-keychain called by docker-credential-helpers' own Go client package
/// (Debian's golang-github-docker-docker-credential-helpers-dev), the code Docker's CLI uses
/// to run a credential helper: an independent reader of the protocol's JSON and messages.
@Suite struct DockerGoClientTests {
    let user = CredentialHelperUser()

    /// Tests/DockerCredentialClient/main.go, built once for the test process.
    static let client: Result<ProgramProcess, GoBuildError> = {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DockerCredentialClient/main.go")
        let folder = TestScratch.folder("docker-credential-client")
        let executable = folder.appendingPathComponent("docker-credential-client")
        var environment = ProcessInfo.processInfo.environment
        // Debian's Go packages live in GOPATH's layout, without modules.
        environment["GO111MODULE"] = "off"
        environment["GOPATH"] = "/usr/share/gocode"
        environment["GOCACHE"] = folder.appendingPathComponent("cache").path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let built = try SpawnedProcess.runToEnd(
                "/usr/bin/go", ["build", "-o", executable.path, source.path], environment: environment, outputIn: folder)
            guard built.status == 0 else { return .failure(GoBuildError(message: built.errors)) }
        } catch {
            return .failure(GoBuildError(message: "\(error)"))
        }
        return .success(ProgramProcess(executable: executable))
    }()

    /// Runs the Go client on the helper with `arguments`.
    func client(_ arguments: String...) throws -> ProgramProcess.Outcome {
        try Self.client.get().run([user.dockerHelper.executable.path] + arguments, dataHome: user.dataHome)
    }

    @Test func theGoClientStoresGetsListsAndErases() throws {
        let stored = try client("store", "https://registry.example.com", "alice", "tok-1")
        #expect(stored.status == 0, "\(stored.errors)")
        let got = try client("get", "https://registry.example.com")
        #expect(got.status == 0, "\(got.errors)")
        let credentials = try JSONSerialization.jsonObject(with: Data(got.output.utf8)) as? [String: String]
        #expect(credentials == ["ServerURL": "https://registry.example.com", "Username": "alice", "Secret": "tok-1"])
        _ = try client("store", "localhost:5000", "bob", "tok-2")
        let listed = try client("list")
        #expect(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: String]
            == ["https://registry.example.com": "alice", "https://localhost:5000": "bob"])
        let erased = try client("erase", "https://registry.example.com")
        #expect(erased.status == 0, "\(erased.errors)")
        #expect(try client("get", "https://registry.example.com").output == "not found\n")
    }

    /// The client turns the helper's "not found" answer into Docker's not-found error, which
    /// Docker does not report: the message must be docker-credential-helpers' exactly.
    @Test func theGoClientRecognizesNotFound() throws {
        let got = try client("get", "https://nowhere.example.com")
        #expect(got.status == 0, "\(got.errors)")
        #expect(got.output == "not found\n")
    }

    /// The client recognizes the helper's messages for missing fields as its own errors.
    @Test func theGoClientRecognizesMissingUsername() throws {
        let stored = try client("store", "https://registry.example.com", "", "tok-1")
        #expect(stored.status == 1)
        #expect(stored.errors.contains("err: no credentials username, out: `no credentials username`"), "\(stored.errors)")
        #expect(try user.storedItems(group: DockerCredentialTests.group).isEmpty)
    }
}

struct GoBuildError: Error, CustomStringConvertible {
    let message: String
    var description: String { "go build of the Docker credential client failed: \(message)" }
}
