import Foundation
import Keychain
import Security
import Testing
import TestSupport

/// What the Keychain documentation's migration articles promise about items that other
/// wrappers wrote: each is stored here as that wrapper stores it, through Keychain
/// Services, and read with this API.
@Suite struct MigrationGuideTests {
    let keychainFiles = PrivateKeychain()

    /// keychain-swift adds class, account, data and accessibility, and no service.
    @Test func keychainSwiftItemsAreReadWithAnEmptyServiceAndMigrate() throws {
        #expect(keychainFiles.add([
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "token",
            kSecValueData as String: Data("v".utf8),
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
        ]) == errSecSuccess)
        #expect(keychainFiles.add([
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "flag",
            kSecValueData as String: Data([1]),
        ]) == errSecSuccess)
        try keychainFiles.run { () throws in
            let legacy = Keychain(service: "")
            #expect(try legacy.string(forKey: "token") == "v")
            #expect(try legacy.value(forKey: "flag", as: Bool.self) == true)

            let app = Keychain(service: "com.example.app")
            #expect(try app.migrateItems(from: legacy, removeOnCompletion: true) == 2)
            #expect(try app.string(forKey: "token") == "v")
            #expect(try legacy.allKeys().isEmpty)
        }
    }

    /// KeychainAccess: a generic password by service and account; an internet password by
    /// host, protocol and authentication type, with no port or path when the URL has none.
    @Test func keychainAccessItemsAreFoundWhereItStoredThem() throws {
        #expect(keychainFiles.add(genericPassword(account: "alice", service: "com.example.github-token")
            .merging([kSecValueData as String: Data("t1".utf8)]) { $1 }) == errSecSuccess)
        #expect(keychainFiles.add([
            kSecClass as String: kSecClassInternetPassword,
            kSecAttrServer as String: "github.com",
            kSecAttrProtocol as String: kSecAttrProtocolHTTPS,
            kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeDefault,
            kSecAttrAccount as String: "alice",
            kSecValueData as String: Data("t2".utf8),
        ]) == errSecSuccess)
        try keychainFiles.run { () throws in
            #expect(try Keychain(service: "com.example.github-token").string(forKey: "alice") == "t1")
            #expect(try Keychain(server: "github.com", protocol: .https).string(forKey: "alice") == "t2")
        }
    }

    /// The article's EPICKeychainManager: service "EPICKeychainManager", the key as account.
    @Test func epicKeychainManagerItemsAreAKeychainOfItsService() throws {
        #expect(keychainFiles.add(genericPassword(account: "api", service: "EPICKeychainManager")
            .merging([kSecValueData as String: Data("pw".utf8)]) { $1 }) == errSecSuccess)
        try keychainFiles.run { () throws in
            let keychain = Keychain(service: "EPICKeychainManager")
            #expect(try keychain.string(forKey: "api") == "pw")
            #expect(try keychain.remove("api"))
            #expect(try keychain.remove("api") == false)
        }
    }

    @Test func aKeychainItemWrapperItemIsAKeychainOfItsServiceKeyedByAccount() throws {
        try keychainFiles.run { () throws in
            let wrapper = try KeychainItemWrapper(identifier: "com.example.login", accessGroup: nil)
            try wrapper.setObject("com.example.service", forKey: kSecAttrService)
            try wrapper.setObject("bob", forKey: kSecAttrAccount)
            try wrapper.setObject("hunter2", forKey: kSecValueData)
            #expect(try Keychain(service: "com.example.service").string(forKey: "bob") == "hunter2")
        }
    }
}
