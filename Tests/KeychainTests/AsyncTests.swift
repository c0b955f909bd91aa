import Foundation
import Keychain
import Security
import Testing

@Suite struct AsyncTests {
    let keychainFiles = PrivateKeychain()
    let keychain = Keychain(service: "com.example.async")

    @Test func asyncVariantsDoWhatTheSynchronousOnesDo() async throws {
        try await keychainFiles.run {
            try await keychain.set("a", forKey: "text")
            try await keychain.set(7, forKey: "number")
            try await keychain.encode(["x": 1], forKey: "json")
            #expect(try await keychain.string(forKey: "text") == "a")
            #expect(try await keychain.data(forKey: "text") == Data("a".utf8))
            #expect(try await keychain.value(forKey: "number", as: Int.self) == 7)
            #expect(try await keychain.decode([String: Int].self, forKey: "json") == ["x": 1])
            #expect(try await keychain.contains("text"))
            #expect(try await keychain.allKeys() == ["text", "number", "json"])
            #expect(try await keychain.allItems().count == 3)
            #expect(try await keychain.remove("text"))
            #expect(try await keychain.string(forKey: "text") == nil)
            try await keychain.removeAll()
            #expect(try await keychain.allKeys() == [])
        }
    }

    /// The async variants run on a dispatch queue; they must still act on the caller's
    /// keychain (KeychainEnvironment), here a private one, and not on another.
    @Test func asyncVariantsUseTheCallersKeychain() async throws {
        try await keychainFiles.run { try await keychain.set("here", forKey: "k") }
        #expect(try readSynchronously("k", in: keychainFiles) == "here")
        try await PrivateKeychain().run { () async throws in #expect(try await keychain.contains("k") == false) }
    }

    @Test func cancelledTaskDoesNotStartTheOperation() async throws {
        try await keychainFiles.run { () async throws in
            let task = Task { () async -> KeychainError? in
                withUnsafeCurrentTask { $0?.cancel() }
                do throws(KeychainError) {
                    try await keychain.set("v", forKey: "k")
                    return nil
                } catch {
                    return error
                }
            }
            #expect(await task.value?.status == errSecUserCanceled)
            #expect(try await keychain.contains("k") == false)
        }
    }

    /// The synchronous read; in an async context the async overload would be chosen.
    private func readSynchronously(_ key: String, in files: PrivateKeychain) throws -> String? {
        try files.run { try keychain.string(forKey: key) }
    }
}
