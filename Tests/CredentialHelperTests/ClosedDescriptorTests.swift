import Foundation
import Testing
import TestSupport

/// Standard descriptors closed by the caller: they are taken by /dev/null before the helper
/// opens anything, so that the answer never lands in a file the library opened.
@Suite struct ClosedDescriptorTests {
    let user = CredentialHelperUser()

    @Test func getWithStandardOutputClosedWritesThePasswordIntoNoFile() throws {
        _ = try user.gitHelper("store", CredentialHelperUser.lines(
            "protocol=https", "host=git.example.com", "username=alice", "password=hunter2"))
        let scratch = TestScratch.folder("closed-output")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let outcome = try SpawnedProcess.runToEnd(
            "/bin/sh", ["-c", "printf 'protocol=https\\nhost=git.example.com\\n\\n' | \"$0\" get >&-", user.gitHelper.executable.path],
            environment: ProgramProcess.environment(dataHome: user.dataHome), outputIn: scratch)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output == "")
        // No file of the keychain folder holds the password in the clear.
        let files = try #require(FileManager.default.enumerator(at: user.dataHome, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath }
        #expect(!files.isEmpty)
        for file in files {
            let contents = try Data(contentsOf: file)
            #expect(contents.firstRange(of: Data("hunter2".utf8)) == nil, "\(file.path)")
        }
        let found = try user.gitHelper("get", CredentialHelperUser.lines("protocol=https", "host=git.example.com"))
        #expect(CredentialHelperUser.fields(found.output)["password"] == "hunter2")
    }
}
