import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a keychain's files are and the permissions they get: the folder 0700, the
/// database and its key 0600. SQLite gives the WAL and shared-memory files the database's
/// mode, so creating the database ourselves keeps all of them private.
public struct KeychainFiles: Sendable, Hashable {
    public let directory: URL
    public let name: String
    /// The file of the secret that binds ThisDeviceOnly items to this machine: outside the
    /// keychain folder, so that a copy of the folder does not carry it. Tests play a second
    /// machine by naming another file.
    public let machineSecret: URL

    public init(directory: URL, name: String, machineSecret: URL? = nil) {
        self.directory = directory
        self.name = name
        self.machineSecret = machineSecret ?? MachineSecret.processDefaultLocation
    }

    /// `$XDG_DATA_HOME/keychains`, or `~/.local/share/keychains` when it is unset.
    public static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        XDGFolder.data.url(environment: environment).appendingPathComponent("keychains")
    }

    /// The database: `<name>.keychain-db`.
    public var database: URL { directory.appendingPathComponent("\(name).keychain-db") }
    /// The device key beside it: `<name>.keychain-key`.
    public var deviceKey: URL { directory.appendingPathComponent("\(name).keychain-key") }

    /// The lock file that serializes opening: `<name>.keychain-lock`.
    public var openLock: URL { directory.appendingPathComponent("\(name).keychain-lock") }

    /// Runs `body` holding an exclusive advisory lock on ``openLock``. Processes that open a
    /// new keychain at once would otherwise race to switch it to WAL and create its tables;
    /// the kernel drops the lock if its holder dies.
    func whileOpening<T>(_ body: () throws(KeychainError) -> T) throws(KeychainError) -> T {
        let fd = open(openLock.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .notAvailable("cannot create \(openLock.path): \(errnoText())") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .notAvailable("cannot lock \(openLock.path): \(errnoText())") }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Creates the folder (0700) and an empty database file (0600) where they are missing,
    /// and tightens a folder that is looser.
    func prepare() throws(KeychainError) {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw .notAvailable("'\(name)' is not a keychain name")
        }
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw .notAvailable("cannot create the folder \(directory.path)")
        }
        var info = stat()
        guard stat(directory.path, &info) == 0 else {
            throw .notAvailable("cannot inspect \(directory.path): \(errnoText())")
        }
        guard info.st_uid == geteuid() else {
            throw .notAvailable("\(directory.path) belongs to another user")
        }
        if info.st_mode & 0o077 != 0, chmod(directory.path, 0o700) != 0 {
            throw .notAvailable("cannot make \(directory.path) private: \(errnoText())")
        }
        let fd = open(database.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .notAvailable("cannot create \(database.path): \(errnoText())")
        }
        defer { close(fd) }
        if fstat(fd, &info) == 0, info.st_mode & 0o077 != 0 { fchmod(fd, 0o600) }
    }
}
