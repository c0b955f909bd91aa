import Foundation
import Keychain
import Security
import Testing
import TestSupport

/// Saves from many tasks at once. Child tasks inherit the private keychain (a task-local).
/// Counts of rounds are fixed; nothing here is timed.
@Suite struct ConcurrencyTests {
    let keychainFiles = PrivateKeychain()
    let keychain = Keychain(service: "com.example.concurrent")

    /// Racing first saves of the same key meet errSecDuplicateItem in their add;
    /// the upsert turns that into an update, so none fails and one item per key remains.
    @Test func racingFirstSavesAllSucceed() async throws {
        let keys = (0..<50).map { "key-\($0)" }
        try await keychainFiles.run {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        // The async view: each save runs on a thread of the module's queue.
                        for key in keys { try await keychain.async.set("writer-\(writer)", forKey: key) }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await keychain.async.allKeys() == keys)
            for key in keys {
                #expect(try await keychain.async.string(forKey: key)?.hasPrefix("writer-") == true)
            }
        }
    }

    /// A save never deletes first, so a reader running alongside never sees the item missing.
    /// The synchronous API, called from several child tasks (threads of the cooperative pool).
    @Test func readersNeverSeeASavedItemMissing() async throws {
        let keychain = keychain
        // Synchronous local functions, as a handler would call the synchronous API.
        func write(rounds: Int) throws {
            for round in 1...rounds { try keychain.set(round, forKey: "counter") }
        }
        func countMissing(reads: Int) throws -> Int {
            var missing = 0
            for _ in 0..<reads where try keychain.contains("counter") == false { missing += 1 }
            return missing
        }
        try await keychainFiles.run {
            try await keychain.async.set(0, forKey: "counter")
            let missingReads = try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask { try write(rounds: 300); return 0 }
                for _ in 0..<2 {
                    group.addTask { try countMissing(reads: 300) }
                }
                return try await group.reduce(0, +)
            }
            #expect(missingReads == 0)
            #expect(try await keychain.async.value(forKey: "counter", as: Int.self) == 300)
        }
    }

    /// Racing adds of one key, for the classic wrappers, which save through the same upsert as `Keychain`:
    /// racing first registrations of one identifier all succeed and leave one item.
    @Test func racingFirstRegistrationsOfAPasswordManagerAllSucceed() async throws {
        try await keychainFiles.run {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<8 {
                    group.addTask { try PasswordManager().registerKey("key-\(writer)", forIdentifier: "alice") }
                }
                try await group.waitForAll()
            }
            #expect(try PasswordManager().key(forIdentifier: "alice")?.hasPrefix("key-") == true)
            #expect(try Keychain(service: PasswordManager.service).allKeys().count == 1)
        }
    }

    /// Two wrappers of one identifier, neither of which found an item, write at once: the
    /// one whose add loses finds the other's item and updates it, so both writes succeed.
    @Test func racingFirstWritesOfKeychainItemWrappersAllSucceed() async throws {
        try await keychainFiles.run {
            let wrappers = try (0..<8).map { _ in try KeychainItemWrapper(identifier: "com.example.pin") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (writer, wrapper) in wrappers.enumerated() {
                    group.addTask { try wrapper.setObject("pin-\(writer)", forKey: .valueData) }
                }
                try await group.waitForAll()
            }
            let stored = try KeychainItemWrapper(identifier: "com.example.pin").object(forKey: .valueData) as? String
            #expect(stored?.hasPrefix("pin-") == true)
            #expect(try Keychain(service: "").allKeys() == [""])
        }
    }
}
