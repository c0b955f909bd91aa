import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import KeychainCore
import Testing
import TestSupport

/// The file system: the library never changes the mode of what it did not create, refuses a
/// keychain in a folder others may write, and opens its files (database, lock file, device
/// key, machine secret, shared lock count) without following links or waiting on FIFOs,
/// only when they are regular files of this user that no one else may read.
@Suite struct FileSafetyTests {
    /// A new folder made as a user would, with `mode` (set after mkdir, beyond the umask).
    func folder(_ purpose: String, mode: mode_t) throws -> URL {
        let url = TestScratch.folder(purpose)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        #expect(chmod(url.path, mode) == 0)
        return url
    }

    func mode(_ url: URL) -> mode_t {
        var status = stat()
        return lstat(url.path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    func isFIFO(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
    }

    /// The reason of an errSecNotAvailable, or nil for any other outcome.
    func notAvailable(_ body: () throws -> Void) -> String? {
        do {
            try body()
        } catch KeychainError.notAvailable(let reason) {
            return reason
        } catch {
            return nil
        }
        return nil
    }

    func store(in directory: URL, name: String = "login") throws -> KeychainStore {
        try KeychainStore.open(KeychainFiles(directory: directory, name: name,
                                             machineSecret: directory.appendingPathComponent("machine-secret")))
    }

    // MARK: - Folders

    @Test("an existing folder of the user keeps its mode: a keychain in ./ (0755) never chmods the folder")
    func existingFolderKeepsItsMode() throws {
        let directory = try folder("own-0755", mode: 0o755)
        let keychain = try store(in: directory)
        _ = try keychain.add(NewItem(itemClass: .genericPassword, attributes: ["acct": .string("a")]),
                             by: CallerIdentity(accessGroups: ["app"]))
        #expect(mode(directory) == 0o755)
    }

    @Test("a folder the library creates, with its missing parents, is 0700")
    func createdFoldersArePrivate() throws {
        let top = TestScratch.folder("created")
        let directory = top.appendingPathComponent("a/b")
        _ = try store(in: directory)
        #expect(mode(top) == 0o700)
        #expect(mode(top.appendingPathComponent("a")) == 0o700)
        #expect(mode(directory) == 0o700)
    }

    @Test("a folder that group or others may write is refused, unchanged and empty, sticky (like /tmp) or not")
    func writableFolderIsRefused() throws {
        for folderMode: mode_t in [0o775, 0o757, 0o1777] {
            let directory = try folder("writable", mode: folderMode)
            let reason = notAvailable { _ = try store(in: directory) }
            #expect(reason?.contains("is writable by others") == true, "\(String(folderMode, radix: 8))")
            #expect(mode(directory) == folderMode)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test("a folder of another user is refused", .enabled(if: geteuid() == 0, "only root can give a folder away"))
    func otherUsersFolderIsRefused() throws {
        let directory = try folder("foreign", mode: 0o755)
        #expect(chown(directory.path, 65534, 65534) == 0)
        #expect(notAvailable { _ = try store(in: directory) }?.contains("belongs to another user") == true)
    }

    // MARK: - The database and the lock file

    @Test("a database that is a symbolic link is refused and its target untouched")
    func databaseLinkIsRefused() throws {
        let directory = try folder("db-link", mode: 0o700)
        let target = directory.appendingPathComponent("elsewhere")
        try Data("not a keychain".utf8).write(to: target)
        #expect(chmod(target.path, 0o600) == 0)
        #expect(symlink(target.path, directory.appendingPathComponent("login.keychain-db").path) == 0)
        #expect(notAvailable { _ = try store(in: directory) }?.contains("is a symbolic link") == true)
        #expect(try Data(contentsOf: target) == Data("not a keychain".utf8))
    }

    @Test("a database that is a FIFO is refused without waiting for a writer")
    func databaseFIFOIsRefused() throws {
        let directory = try folder("db-fifo", mode: 0o700)
        let database = directory.appendingPathComponent("login.keychain-db")
        #expect(mkfifo(database.path, 0o600) == 0)
        #expect(notAvailable { _ = try store(in: directory) }?.contains("is not a regular file") == true)
        #expect(isFIFO(database))
    }

    @Test("a group-readable database is refused, not chmodded")
    func looseDatabaseIsRefused() throws {
        let directory = try folder("db-loose", mode: 0o700)
        let database = directory.appendingPathComponent("login.keychain-db")
        #expect(FileManager.default.createFile(atPath: database.path, contents: nil))
        #expect(chmod(database.path, 0o640) == 0)
        #expect(notAvailable { _ = try store(in: directory) }?.contains("has mode 640") == true)
        #expect(mode(database) == 0o640)
    }

    @Test("a lock file that is a symbolic link is refused and its target not created")
    func lockFileLinkIsRefused() throws {
        let directory = try folder("lock-link", mode: 0o700)
        let target = directory.appendingPathComponent("made-through-the-link")
        #expect(symlink(target.path, directory.appendingPathComponent("login.keychain-lock").path) == 0)
        #expect(notAvailable { _ = try store(in: directory) }?.contains("is a symbolic link") == true)
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    // MARK: - Key files

    @Test("a group-readable device key is refused, not chmodded, and no other key replaces it")
    func looseDeviceKeyIsRefused() throws {
        let directory = try folder("key-loose", mode: 0o700)
        let files = KeychainFiles(directory: directory, name: "login",
                                  machineSecret: directory.appendingPathComponent("machine-secret"))
        _ = try KeychainStore.open(files)
        let key = try Data(contentsOf: files.deviceKey)
        #expect(chmod(files.deviceKey.path, 0o640) == 0)
        #expect(notAvailable { _ = try DeviceKeyFile.load(files, create: true) }?.contains("has mode 640") == true)
        #expect(mode(files.deviceKey) == 0o640)
        #expect(try Data(contentsOf: files.deviceKey) == key)
    }

    @Test("a machine secret that is a FIFO is refused at once (it used to hang the process)")
    func machineSecretFIFOIsRefused() throws {
        let directory = try folder("secret-fifo", mode: 0o700)
        let secret = directory.appendingPathComponent("machine-secret")
        #expect(mkfifo(secret.path, 0o600) == 0)
        #expect(notAvailable { _ = try MachineSecret.load(at: secret) }?.contains("is not a regular file") == true)
        #expect(isFIFO(secret))
    }

    @Test("a machine secret that is a symbolic link is refused, even to a file of the user")
    func machineSecretLinkIsRefused() throws {
        let directory = try folder("secret-link", mode: 0o700)
        let target = directory.appendingPathComponent("planted")
        #expect(FileManager.default.createFile(atPath: target.path, contents: Data(repeating: 7, count: 32),
                                               attributes: [.posixPermissions: 0o600]))
        let secret = directory.appendingPathComponent("machine-secret")
        #expect(symlink(target.path, secret.path) == 0)
        #expect(notAvailable { _ = try MachineSecret.load(at: secret) }?.contains("is a symbolic link") == true)
    }

    @Test("a machine secret of another user is refused", .enabled(if: geteuid() == 0, "only root can give a file away"))
    func otherUsersMachineSecretIsRefused() throws {
        let directory = try folder("secret-foreign", mode: 0o700)
        let secret = directory.appendingPathComponent("machine-secret")
        #expect(FileManager.default.createFile(atPath: secret.path, contents: Data(repeating: 7, count: 32),
                                               attributes: [.posixPermissions: 0o600]))
        #expect(chown(secret.path, 65534, 65534) == 0)
        #expect(notAvailable { _ = try MachineSecret.load(at: secret) }?.contains("belongs to another user") == true)
    }

    @Test("a new machine secret and its machine id record are 0600, in a folder made 0700")
    func newMachineSecretIsPrivate() throws {
        let top = TestScratch.folder("secret-new")
        let secret = top.appendingPathComponent("state/swift-keychain/machine-secret")
        _ = try MachineSecret.load(at: secret)
        #expect(mode(secret.deletingLastPathComponent()) == 0o700)
        #expect(mode(secret) == 0o600)
        #expect(mode(MachineSecret.recordLocation(of: secret)) == 0o600)
        #expect(try Data(contentsOf: secret).count == 32)
    }

    // MARK: - /etc/machine-id

    @Test("the machine id is read with a size cap: a huge file or a FIFO is an error, not a hang or an allocation")
    func machineIDReadIsBounded() throws {
        let directory = try folder("machine-id", mode: 0o700)
        let huge = directory.appendingPathComponent("huge")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: Data(repeating: 0x61, count: 1 << 20)))
        #expect(notAvailable { _ = try MachineID.read(at: huge) }?.contains("too large") == true)
        let fifo = directory.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(notAvailable { _ = try MachineID.read(at: fifo) }?.contains("is not a regular file") == true)
        let missing = directory.appendingPathComponent("missing")
        #expect(try MachineID.read(at: missing).isEmpty)
        let id = directory.appendingPathComponent("id")
        try Data("0123456789abcdef0123456789abcdef\n".utf8).write(to: id)
        #expect(try MachineID.read(at: id) == Data("0123456789abcdef0123456789abcdef\n".utf8))
    }

    // MARK: - The shared lock count

    @Test("a shared lock count that is a FIFO, a link or group-readable is not used, and left as it is")
    func unsafeSharedCountIsNotUsed() throws {
        let id = UUID().uuidString
        let path = "/dev/shm/swift-keychain-\(geteuid())-\(id)"
        defer { unlink(path) }
        #expect(mkfifo(path, 0o600) == 0)
        #expect(SessionGeneration(keychainID: id).current() == nil)
        #expect(isFIFO(URL(fileURLWithPath: path)))
        unlink(path)

        let target = try folder("count-link", mode: 0o700).appendingPathComponent("target")
        #expect(symlink(target.path, path) == 0)
        #expect(SessionGeneration(keychainID: id).current() == nil)
        #expect(!FileManager.default.fileExists(atPath: target.path))
        unlink(path)

        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640]))
        #expect(SessionGeneration(keychainID: id).current() == nil)
        #expect(mode(URL(fileURLWithPath: path)) == 0o640)
        unlink(path)

        // The count works once the file is the user's alone.
        #expect(SessionGeneration(keychainID: id).current() == 0)
    }
}
