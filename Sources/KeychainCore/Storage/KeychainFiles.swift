import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a keychain's files are and the permissions they get: a folder the library creates
/// 0700, the database and its key 0600. SQLite gives the WAL and shared-memory files the
/// database's mode, so creating the database ourselves keeps all of them private.
package struct KeychainFiles: Sendable, Hashable {
    package let directory: URL
    package let name: String
    /// The file of the secret that binds ThisDeviceOnly items to this machine: outside the
    /// keychain folder, so that a copy of the folder does not carry it. Tests play a second
    /// machine by naming another file.
    package let machineSecret: URL

    package init(directory: URL, name: String, machineSecret: URL? = nil) {
        self.directory = directory
        self.name = name
        self.machineSecret = machineSecret ?? MachineSecret.processDefaultLocation
    }

    /// The keychain a path names, as `SecKeychainCreate`, `SecKeychainOpen`, keychainctl and
    /// the sync commands take one: a bare name (`work`, `work.keychain`, `work.keychain-db`)
    /// is in `directory`; a path (anything with a `/`) names the database file itself, from
    /// the working folder when it is relative, with `.` and `..` taken out of it.
    ///
    /// Every program of the package turns a path into files here, so that a keychain named
    /// the same way is shown the same way everywhere. Which store a process uses for it does
    /// not depend on the spelling (see ``KeychainStore/shared(_:create:)``).
    package init(path: String, directory: URL) {
        var name = (path as NSString).lastPathComponent
        for suffix in [".keychain-db", ".keychain"] where name.hasSuffix(suffix) && name.count > suffix.count {
            name.removeLast(suffix.count)
            break
        }
        let folder: URL
        if path.contains("/") {
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            folder = URL(fileURLWithPath: absolute).deletingLastPathComponent().standardizedFileURL
        } else {
            folder = directory
        }
        self.init(directory: folder, name: name)
    }

    /// `$XDG_DATA_HOME/keychains`, or `~/.local/share/keychains` when it is unset.
    package static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        XDGFolder.data.url(environment: environment).appendingPathComponent("keychains")
    }

    /// The database: `<name>.keychain-db`.
    package var database: URL { directory.appendingPathComponent("\(name).keychain-db") }
    /// The device key beside it: `<name>.keychain-key`.
    package var deviceKey: URL { directory.appendingPathComponent("\(name).keychain-key") }

    /// The lock file that serializes opening: `<name>.keychain-lock`.
    var openLock: URL { directory.appendingPathComponent("\(name).keychain-lock") }

    /// Runs `body` holding an exclusive advisory lock on ``openLock``. Processes that open a
    /// new keychain at once would otherwise race to switch it to WAL and create its tables;
    /// the kernel drops the lock if its holder dies.
    func whileOpening<T>(_ body: () throws(KeychainError) -> T) throws(KeychainError) -> T {
        guard let fd = try PrivateFile.open(openLock.path, flags: O_RDWR | O_CREAT, role: "lock file") else {
            throw .notAvailable("the lock file \(openLock.path) vanished while it was created")
        }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .notAvailable("cannot lock \(openLock.path): \(errnoText())") }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Creates the folder (0700) and an empty database file (0600) where they are missing,
    /// and checks what is there (see ``PrivateFolder`` and ``PrivateFile``): a folder of this
    /// user that no one else may write, a database that is a regular file of this user that
    /// no one else may read. Nothing that exists is chmodded; anything else is refused with
    /// errSecNotAvailable saying why.
    func prepare() throws(KeychainError) {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw .notAvailable("'\(name)' is not a keychain name")
        }
        try PrivateFolder.prepare(directory, role: "keychain folder")
        guard let fd = try PrivateFile.open(database.path, flags: O_RDWR | O_CREAT, role: "keychain database") else {
            throw .notAvailable("the keychain database \(database.path) vanished while it was created")
        }
        defer { close(fd) }
        // A new database's name must survive a power cut like what SQLite syncs into it
        // (SQLite syncs the folder for the log it creates, not for the database file).
        var status = stat()
        if fstat(fd, &status) == 0, status.st_size == 0 { PrivateFolder.sync(directory.path) }
    }
}
