import Foundation
@testable import KeychainCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A process has one store per keychain database, however the keychain's path is spelled: a
/// second store would open and close the database file, which drops every POSIX lock the
/// process holds on it, and other processes would take the keychain as unused (the last to
/// close it then removes its log under the first connection). What another process sees of
/// the locks is checked by ``DatabaseLockProbe``, a process of its own.
@Suite struct OneStorePerDatabaseTests {
    /// A scratch folder with `keychains` in it, and the folder's other names: a link to
    /// it, a path through `..`, and a second folder to hold a hard link of the database.
    struct Spellings {
        let root: URL
        let machineSecret: URL
        var keychains: URL { root.appendingPathComponent("keychains") }
        var linked: URL { root.appendingPathComponent("linked") }
        var throughParent: URL { URL(fileURLWithPath: keychains.path + "/../keychains") }
        var hardLinked: URL { root.appendingPathComponent("hard-linked") }

        init() throws {
            root = TestScratch.folder("one-store")
            machineSecret = root.appendingPathComponent("machine-secret")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("keychains"),
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("linked"),
                                                       withDestinationURL: root.appendingPathComponent("keychains"))
        }

        func files(in folder: URL) -> KeychainFiles {
            KeychainFiles(directory: folder, name: "work", machineSecret: machineSecret)
        }

        /// Links the database into ``hardLinked`` under the same name.
        func linkDatabase() throws {
            try FileManager.default.createDirectory(at: hardLinked, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try #require(link(files(in: keychains).database.path, files(in: hardLinked).database.path) == 0)
        }
    }

    let caller = CallerIdentity(accessGroups: ["com.example.app"])

    func add(_ store: KeychainStore, _ account: String) throws {
        _ = try store.add(NewItem(itemClass: .genericPassword, attributes: ["acct": .string(account)],
                                  data: Data("s3cret".utf8)), by: caller)
    }

    @Test("every path to a keychain gives the process's one store, which keeps its locks")
    func everySpellingGivesTheOneStore() throws {
        let spellings = try Spellings()
        let store = try KeychainStore.shared(spellings.files(in: spellings.keychains))
        try add(store, "first")
        let database = store.files.database.path
        try #require(try DatabaseLockProbe.isHeld(database), "the open store holds SQLite's shared lock")
        try spellings.linkDatabase()

        for folder in [spellings.linked, spellings.throughParent, spellings.hardLinked] {
            let other = try KeychainStore.shared(spellings.files(in: folder), create: false)
            #expect(other === store, "\(folder.path) gives the store opened first")
        }
        #expect(try DatabaseLockProbe.isHeld(database), "no second open dropped the process's lock")
        try add(store, "after")
        #expect(try store.find(ItemQuery(itemClass: .genericPassword, attributes: [:], limit: .all), by: caller).count == 2)
    }

    @Test("a created keychain's store is the process's store of it, by any path")
    func createdStoreIsShared() throws {
        let spellings = try Spellings()
        let created = try KeychainStore.create(spellings.files(in: spellings.linked), password: nil, kdf: .fastForTesting())
        let database = spellings.files(in: spellings.keychains).database.path
        try #require(try DatabaseLockProbe.isHeld(database))
        #expect(try KeychainStore.shared(spellings.files(in: spellings.keychains), create: false) === created)
        #expect(try KeychainStore.shared(spellings.files(in: spellings.throughParent)) === created)
        #expect(try DatabaseLockProbe.isHeld(database))
        // Created again under another spelling: it exists.
        #expect(throws: KeychainError.duplicateKeychain) {
            _ = try KeychainStore.create(spellings.files(in: spellings.throughParent), password: nil, kdf: .fastForTesting())
        }
    }

    @Test("a keychain deleted through one path is gone through every other")
    func deletedThroughAnotherPath() throws {
        let spellings = try Spellings()
        _ = try KeychainStore.shared(spellings.files(in: spellings.keychains))
        try KeychainStore.delete(spellings.files(in: spellings.linked))
        #expect(!FileManager.default.fileExists(atPath: spellings.files(in: spellings.keychains).database.path))
        #expect(throws: KeychainError.noSuchKeychain) {
            _ = try KeychainStore.shared(spellings.files(in: spellings.keychains), create: false)
        }
    }

    @Test("a path names a keychain as SecKeychainOpen takes it: a bare name in the folder, a path from the working folder")
    func filesFromAPath() {
        let folder = URL(fileURLWithPath: "/srv/keychains")
        for bare in ["work", "work.keychain", "work.keychain-db"] {
            let files = KeychainFiles(path: bare, directory: folder)
            #expect(files.database.path == "/srv/keychains/work.keychain-db", "\(bare)")
        }
        #expect(KeychainFiles(path: "/a/b/../c/.keychain", directory: folder).database.path == "/a/c/.keychain.keychain-db")
        #expect(KeychainFiles(path: "/a/./b/x.keychain-db", directory: folder).database.path == "/a/b/x.keychain-db")
        let working = FileManager.default.currentDirectoryPath
        #expect(KeychainFiles(path: "sub/x", directory: folder).database.path
            == URL(fileURLWithPath: working).appendingPathComponent("sub/x.keychain-db").standardizedFileURL.path)
    }
}
