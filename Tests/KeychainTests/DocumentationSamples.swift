import Crypto
import Foundation
import Keychain
import Security

// Every ```swift block of the Keychain DocC articles and of the module's documentation
// comments, verbatim, as the body (or part of
// the body) of a function, so that the tests compile each one; DocumentationSampleTests
// checks that each block appears here and runs the functions in a private keychain.
enum DocumentationSamples {
    // MARK: CryptoKeyStore.swift

    /// Returns whether the restored key is the stored one.
    static func storeCryptoKitKey() throws -> Bool {
        let store = CryptoKeyStore()
        let signingKey = P256.Signing.PrivateKey()
        try store.set(signingKey, label: "com.example.signing")
        let restored = try store.key(P256.Signing.PrivateKey.self, label: "com.example.signing")
        return restored?.rawRepresentation == signingKey.rawRepresentation
    }

    // MARK: GettingStarted.md and SwiftKeychain.md

    static func saveAndRead() throws -> (token: String?, known: Bool, keys: [String]) {
        let keychain = Keychain(service: "com.example.api")
        try keychain.set("s3cr3t", forKey: "deploy-bot")       // update, else add
        let token = try keychain.string(forKey: "deploy-bot")  // nil when absent, never an error
        let known = try keychain.contains("deploy-bot")
        try keychain.remove("deploy-bot")
        let keys = try keychain.allKeys()                      // in insertion order
        return (token, known, keys)
    }

    static func otherValuesWithOptions() throws -> (retries: Int?, endpoint: String?, label: String?) {
        struct Settings: Codable { var retries: Int; var endpoint: String }

        var keychain = Keychain(service: "com.example.api")
        keychain.options.label = "API settings"
        keychain.options.accessibility = .afterFirstUnlock
        try keychain.set(3, forKey: "retries")
        let retries = try keychain.value(forKey: "retries", as: Int.self)
        try keychain.encode(Settings(retries: 3, endpoint: "https://api.example.com"), forKey: "settings")
        let settings = try keychain.decode(Settings.self, forKey: "settings")
        return (retries, settings?.endpoint, try keychain.allItems().first?.label)
    }

    /// Returns whether the save succeeded.
    static func handleFailures(_ keychain: Keychain, token: String) -> Bool {
        do {
            try keychain.set(token, forKey: "deploy-bot")
        } catch KeychainError.interactionNotAllowed {
            // The keychain is locked: try again once it is unlocked.
        } catch KeychainError.missingEntitlement {
            // The access group is not one this program holds.
        } catch {
            print("Could not save the token: \(error)")
        }
        return (try? keychain.contains("deploy-bot")) == true
    }

    static func fromAsyncCode(_ token: String) async throws {
        func storeToken(_ token: String) async throws {
            let keychain = Keychain(service: "com.example.api")
            try keychain.set(token, forKey: "deploy-bot")               // waits on this thread
            try await keychain.async.set(token, forKey: "deploy-bot")   // waits on a background queue
        }
        try await storeToken(token)
    }

    static func anotherKeychainFile(path: String, token: String) throws {
        let ci = Keychain(service: "com.example.ci", file: KeychainFile(path: path))
        try ci.set(token, forKey: "deploy-bot")
    }

    // MARK: MigratingFromOtherWrappers.md

    static func fromKeychainAccess(token: String) throws -> String? {
        let keychain = Keychain(service: "com.example.github-token")
            .accessibility(.afterFirstUnlock)
        try keychain.set(token, forKey: "alice")
        let internet = Keychain(server: "github.com", protocol: .https, authenticationType: .htmlForm)
        let saved = try internet.string(forKey: "alice")
        return saved
    }

    static func fromKeychainSwift() throws {
        let legacy = Keychain(service: "")
        let app = Keychain(service: "com.example.app")
        try app.migrateItems(from: legacy, removeOnCompletion: true)
    }

    static func fromValet(valetService: String) throws -> Int {
        let keychain = Keychain(service: "com.example.app")
        let moved = try keychain.migrateItems(matching: [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: valetService,
        ], removeOnCompletion: true)
        return moved
    }

    // MARK: MigratingFromClassicWrappers.md

    static func fromUYLPasswordManager(passwordHash: String, attempt: String) throws -> Bool {
        let manager = PasswordManager()
        manager.accessMode = .afterFirstUnlock
        try manager.registerKey(passwordHash, forIdentifier: "alice")   // add, or replace
        let valid = try manager.validKey(attempt, forIdentifier: "alice") // constant-time comparison
        try manager.deleteKey(forIdentifier: "alice")
        manager.purge()                                                   // forget the key in memory
        return valid
    }

    static func fromKeychainItemWrapper() throws -> String? {
        let pin = try KeychainItemWrapper(identifier: "com.example.pin", accessGroup: nil)
        try pin.setObject("pin", forKey: .account)                  // each change is written at once
        try pin.setObject(Accessibility.whenUnlocked, forKey: .accessible)
        try pin.setObject("1234", forKey: .valueData)
        let stored = pin.object(forKey: .valueData) as? String
        try pin.resetKeychainItem()                                 // delete; the defaults come back
        return stored
    }

    // MARK: Documentation comments in Sources/SwiftKeychain

    static func keychainType() throws -> String? {
        let keychain = Keychain(service: "com.example.api")
        try keychain.set("s3cr3t", forKey: "deploy-bot")
        let token = try keychain.string(forKey: "deploy-bot")    // "s3cr3t", or nil if absent
        return token
    }

    static func readingAValue(_ keychain: Keychain) throws -> Int? {
        let retries = try keychain.value(forKey: "retries", as: Int.self)
        return retries
    }

    static func migratingByQuery(_ keychain: Keychain) throws {
        try keychain.migrateItems(matching: [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "legacy-service",
        ], removeOnCompletion: true)
    }

    /// Returns whether the save succeeded.
    static func keychainErrorType(_ keychain: Keychain) -> Bool {
        do {
            try keychain.set("s3cr3t", forKey: "deploy-bot")
        } catch KeychainError.interactionNotAllowed {
            // Locked: try again later.
        } catch {
            print(error.status, error.message)
        }
        return (try? keychain.contains("deploy-bot")) == true
    }

    /// Compiled only: the path is a server's.
    static func keychainFileType() -> Keychain {
        let ci = Keychain(service: "com.example.ci", file: KeychainFile(path: "/srv/ci/ci.keychain-db"))
        return ci
    }

    static func keychainItemWrapperType() throws -> String? {
        let pin = try KeychainItemWrapper(identifier: "com.example.app.pin", accessGroup: nil)
        try pin.setObject("pinIdentifier", forKey: .account)
        try pin.setObject(Accessibility.whenUnlocked, forKey: .accessible)
        try pin.setObject("1234", forKey: .valueData)
        let stored = pin.object(forKey: .valueData) as? String   // "1234"
        try pin.resetKeychainItem()
        return stored
    }

    static func passwordManagerType(password: String, attempt: String, username: String) throws -> Bool {
        let manager = PasswordManager.shared
        try manager.registerKey(password, forIdentifier: username)
        let valid = try manager.validKey(attempt, forIdentifier: username)
        try manager.deleteKey(forIdentifier: username)
        return valid
    }
}
