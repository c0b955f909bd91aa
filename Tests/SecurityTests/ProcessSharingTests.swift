import Foundation
import Security
import Testing
import TestSupport

/// Several processes and threads on one keychain (issue: concurrency; design: Storage).
@Suite struct ProcessSharingTests {
    let keychain = PrivateKeychain(accessGroups: ["com.example.app"])

    func helperItem(_ account: String) -> [String: Any] {
        genericPassword(account: account, service: "helper.example.com")
    }

    @Test func whatOneProcessWritesAnotherReads() throws {
        let added = try HelperProcess.run(["add", "carol", "from-the-helper"], dataHome: keychain.dataHome, accessGroups: "com.example.app")
        #expect(added == "\(errSecSuccess)")
        let found = keychain.copyMatching(helperItem("carol").with([kSecReturnData as String: true]))
        #expect(found.status == errSecSuccess)
        #expect(found.result as? Data == Data("from-the-helper".utf8))

        #expect(keychain.add(helperItem("dave").with([kSecValueData as String: Data("from-the-tests".utf8)])) == errSecSuccess)
        let read = try HelperProcess.run(["find", "dave"], dataHome: keychain.dataHome, accessGroups: "com.example.app")
        #expect(read == "\(errSecSuccess) from-the-tests")
    }

    @Test("Access groups across processes: another process's groups do not see the items")
    func otherGroupsDoNotSeeTheItems() throws {
        #expect(keychain.add(helperItem("erin").with([kSecValueData as String: Data("x".utf8)])) == errSecSuccess)
        let read = try HelperProcess.run(["find", "erin"], dataHome: keychain.dataHome, accessGroups: "com.example.other")
        #expect(read == "\(errSecItemNotFound)")
    }

    @Test("Racing adds of one item in several processes: exactly one wins, the others get errSecDuplicateItem")
    func racingAddsHaveOneWinner() throws {
        let start = String(Date().timeIntervalSince1970 + 1.0)
        let racers = try (0..<6).map { index in
            try HelperProcess.start(["add", "contested", "racer-\(index)", start], dataHome: keychain.dataHome, accessGroups: "com.example.app")
        }
        let statuses = racers.map(HelperProcess.finish)
        #expect(statuses.filter { $0 == "\(errSecSuccess)" }.count == 1)
        #expect(statuses.filter { $0 == "\(errSecDuplicateItem)" }.count == 5)
        let winner = statuses.firstIndex(of: "\(errSecSuccess)")!
        let found = keychain.copyMatching(helperItem("contested").with([kSecReturnData as String: true]))
        #expect(found.result as? Data == Data("racer-\(winner)".utf8))
    }

    @Test func concurrentWritersInSeveralProcessesLoseNothing() throws {
        let writers = try (0..<4).map { index in
            try HelperProcess.start(["add-many", "writer\(index)", "150"], dataHome: keychain.dataHome, accessGroups: "com.example.app")
        }
        let counts = writers.map(HelperProcess.finish)
        #expect(counts == ["150", "150", "150", "150"])
        let all = keychain.copyMatching([
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "helper.example.com",
            kSecReturnAttributes as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ])
        let items = try #require(all.result as? [[String: Any]])
        #expect(items.count == 600)
        let found = keychain.copyMatching(helperItem("writer3-149").with([kSecReturnData as String: true]))
        #expect(found.result as? Data == Data("secret-149".utf8))
    }

    @Test func threadsOfOneProcessShareTheKeychainSafely() async throws {
        let environment = keychain.environment
        let statuses = await withTaskGroup(of: [OSStatus].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    KeychainEnvironment.withValue(environment) {
                        (0..<50).flatMap { index -> [OSStatus] in
                            let item = genericPassword(account: "w\(worker)-\(index)", service: "threads")
                            var result: CFTypeRef?
                            return [
                                SecItemAdd(item.with([kSecValueData as String: Data("\(worker)/\(index)".utf8)]) as CFDictionary, nil),
                                SecItemCopyMatching(item.with([kSecReturnData as String: true]) as CFDictionary, &result),
                                (result as? Data) == Data("\(worker)/\(index)".utf8) ? errSecSuccess : errSecDecode,
                                SecItemUpdate(item as CFDictionary, [kSecAttrLabel as String: "updated"] as CFDictionary),
                            ]
                        }
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses.count == 8 * 50 * 4)
        #expect(statuses.allSatisfy { $0 == errSecSuccess }, "\(Set(statuses))")
        // Racing adds of one item on threads: exactly one wins.
        let racing = await withTaskGroup(of: OSStatus.self) { group in
            for index in 0..<8 {
                group.addTask {
                    KeychainEnvironment.withValue(environment) {
                        SecItemAdd(genericPassword(account: "same", service: "threads")
                            .with([kSecValueData as String: Data("\(index)".utf8)]) as CFDictionary, nil)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(racing.filter { $0 == errSecSuccess }.count == 1)
        #expect(racing.filter { $0 == errSecDuplicateItem }.count == 7)
    }
}
