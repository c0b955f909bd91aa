import Foundation
import Keychain
import Security
import Testing
import TestSupport

/// A `Keychain` with a `KeychainFile` reads and writes that keychain (kSecUseKeychain), not
/// the default one, with no task-local environment to set.
@Suite struct KeychainFileTests {
    let keychainFiles = PrivateKeychain()
    /// A keychain database outside the keychains folder, made as `SecKeychainCreate` makes one.
    let path = TestScratch.folder("other").appendingPathComponent("ci.keychain-db").path

    private func createKeychain() throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        var created: SecKeychain?
        let status = keychainFiles.run { SecKeychainCreate(path, 0, nil, false, nil, &created) }
        #expect(status == errSecSuccess)
    }

    @Test func itemsGoToTheNamedFileAndNotToTheDefaultKeychain() throws {
        try createKeychain()
        let service = "com.example.ci"
        let inFile = Keychain(service: service, file: KeychainFile(path: path))
        let inDefault = Keychain(service: service)
        try keychainFiles.run {
            try inFile.set("file-secret", forKey: "token")
            #expect(try inDefault.contains("token") == false)
            try inDefault.set("default-secret", forKey: "token")
            #expect(try inFile.string(forKey: "token") == "file-secret")
            #expect(try inDefault.string(forKey: "token") == "default-secret")
            // Listing reads each secret by persistent reference, in the same file.
            #expect(try inFile.allItems().map { try $0.value(as: String.self) } == ["file-secret"])
        }
        // Keychain Services itself finds the item in that file.
        var opened: SecKeychain?
        #expect(SecKeychainOpen(path, &opened) == errSecSuccess)
        var query = genericPassword(account: "token", service: service)
        query[kSecUseKeychain as String] = opened
        query[kSecReturnData as String] = true
        var result: CFTypeRef?
        let status = keychainFiles.run { SecItemCopyMatching(query as CFDictionary, &result) }
        #expect(status == errSecSuccess)
        #expect(result as? Data == Data("file-secret".utf8))
    }

    /// Migration between keychains: the originals are read and removed in their own file.
    @Test func itemsMigrateFromTheDefaultKeychainIntoAFile() throws {
        try createKeychain()
        let old = Keychain(service: "com.example.ci")
        let new = Keychain(service: "com.example.ci", file: KeychainFile(path: path))
        try keychainFiles.run {
            try old.set("pw", forKey: "alice")
            #expect(try new.migrateItems(from: old, removeOnCompletion: true) == 1)
            #expect(try new.string(forKey: "alice") == "pw")
            #expect(try old.contains("alice") == false)
        }
    }

    /// The other way: the originals are read and removed by persistent reference in their
    /// file, which the follow-up calls must name too (a reference alone would be looked up
    /// in the default keychain and not found).
    @Test func itemsMigrateFromAFileIntoTheDefaultKeychain() throws {
        try createKeychain()
        let old = Keychain(service: "com.example.ci", file: KeychainFile(path: path))
        let new = Keychain(service: "com.example.ci")
        try keychainFiles.run {
            try old.set("pw", forKey: "alice")
            try old.set("pw2", forKey: "bob")
            #expect(try new.migrateItems(from: old, removeOnCompletion: true) == 2)
            #expect(try new.allItems().map { try $0.value(as: String.self) } == ["pw", "pw2"])
            #expect(try old.allKeys().isEmpty)
        }
    }

    /// A file that does not exist is not created behind the caller's back: errSecNoSuchKeychain.
    @Test func aMissingFileIsNoSuchKeychain() throws {
        let missing = Keychain(service: "s", file: KeychainFile(path: path))
        keychainFiles.run {
            let error = keychainError { try missing.set("v", forKey: "k") }
            #expect(error?.code == .noSuchKeychain)
        }
        #expect(FileManager.default.fileExists(atPath: path) == false)
    }
}
