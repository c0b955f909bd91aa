import Foundation
import Keychain
import Security
import Testing
import TestSupport

@Suite struct AsyncTests {
    let keychainFiles = PrivateKeychain()
    let keychain = Keychain(service: "com.example.async")

    @Test func asyncVariantsDoWhatTheSynchronousOnesDo() async throws {
        try await keychainFiles.run {
            try await keychain.async.set("a", forKey: "text")
            try await keychain.async.set(7, forKey: "number")
            try await keychain.async.encode(["x": 1], forKey: "json")
            #expect(try await keychain.async.string(forKey: "text") == "a")
            #expect(try await keychain.async.data(forKey: "text") == Data("a".utf8))
            #expect(try await keychain.async.value(forKey: "number", as: Int.self) == 7)
            #expect(try await keychain.async.decode([String: Int].self, forKey: "json") == ["x": 1])
            #expect(try await keychain.async.contains("text"))
            #expect(try await keychain.async.allKeys() == ["text", "number", "json"])
            #expect(try await keychain.async.allItems().count == 3)
            #expect(try await keychain.async.remove("text"))
            #expect(try await keychain.async.string(forKey: "text") == nil)
            try await keychain.async.removeAll()
            #expect(try await keychain.async.allKeys() == [])
        }
    }

    /// The async variants run on a dispatch queue; they must still act on the caller's
    /// keychain (KeychainEnvironment), here a private one, and not on another.
    @Test func asyncVariantsUseTheCallersKeychain() async throws {
        try await keychainFiles.run { try await keychain.async.set("here", forKey: "k") }
        #expect(try readSynchronously("k", in: keychainFiles) == "here")
        try await PrivateKeychain().run { () async throws in #expect(try await keychain.async.contains("k") == false) }
    }

    @Test func cancelledTaskDoesNotStartTheOperation() async throws {
        try await keychainFiles.run { () async throws in
            let task = Task { () async -> KeychainError? in
                withUnsafeCurrentTask { $0?.cancel() }
                do throws(KeychainError) {
                    try await keychain.async.set("v", forKey: "k")
                    return nil
                } catch {
                    return error
                }
            }
            #expect(await task.value?.status == errSecUserCanceled)
            #expect(try await keychain.async.contains("k") == false)
        }
    }

    /// The synchronous read, from synchronous code.
    private func readSynchronously(_ key: String, in files: PrivateKeychain) throws -> String? {
        try files.run { try keychain.string(forKey: key) }
    }

    /// The README's snippet, unchanged, inside an `async` function (a server's request
    /// handler): the synchronous calls compile there without `await`, because the async
    /// calls are a separate view (`keychain.async`), not overloads that the compiler would
    /// prefer in async code.
    @Test func readmeSnippetCompilesAndRunsInsideAnAsyncFunction() async throws {
        func handleRequest() async throws -> (token: String?, known: Bool, keys: [String]) {
            let keychain = Keychain(service: "com.example.api")
            try keychain.set("s3cr3t", forKey: "deploy-bot")
            let token = try keychain.string(forKey: "deploy-bot")
            let known = try keychain.contains("deploy-bot")
            try keychain.remove("deploy-bot")
            let keys = try keychain.allKeys()
            await Task.yield()
            return (token, known, keys)
        }
        let outcome = try await keychainFiles.run { try await handleRequest() }
        #expect(outcome.token == "s3cr3t")
        #expect(outcome.known)
        #expect(outcome.keys.isEmpty)
    }

    /// Both forms in one async function: the synchronous save is seen by the async read and
    /// the other way round, so the two views act on the same items.
    @Test func synchronousAndAsyncCallsMixInAsyncCode() async throws {
        try await keychainFiles.run {
            try keychain.set("sync", forKey: "a")
            try await keychain.async.set("async", forKey: "b")
            #expect(try await keychain.async.string(forKey: "a") == "sync")
            #expect(try keychain.string(forKey: "b") == "async")
            #expect(keychain.async.keychain == keychain)
        }
    }
}
