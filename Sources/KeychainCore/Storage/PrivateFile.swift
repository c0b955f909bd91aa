import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How the library opens its own files (a keychain's database, lock file and device key, the
/// machine secret and its record): never through a symbolic link, never waiting on a FIFO,
/// and only when the descriptor it got is a regular file of this user that no one else may
/// read or write. Anything else is refused with errSecNotAvailable saying what was found;
/// nothing is ever chmodded: a file that is not private was not made by the library, or was
/// changed since.
package enum PrivateFile {
    /// Opens `path` with `flags` (O_RDONLY, O_RDWR, O_CREAT... ; a new file is 0600) and
    /// checks what it opened. Returns nil when the file is missing and `flags` do not create it.
    /// `role` names the file in errors ("device key", "keychain database").
    package static func open(_ path: String, flags: Int32, role: String) throws(KeychainError) -> Int32? {
        let fd = Glibc.open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw .notAvailable("the \(role) \(path) is a symbolic link; it must be a file of its own")
            default: throw .notAvailable("cannot open the \(role) \(path): \(errnoText())")
            }
        }
        do {
            try check(fd, path: path, role: role)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Throws unless `fd` is a regular file of this user that no one else may read or write.
    static func check(_ fd: Int32, path: String, role: String) throws(KeychainError) {
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw .notAvailable("cannot inspect the \(role) \(path): \(errnoText())")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .notAvailable("the \(role) \(path) is not a regular file")
        }
        guard status.st_uid == geteuid() else {
            throw .notAvailable("the \(role) \(path) belongs to another user")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw .notAvailable(
                "the \(role) \(path) has mode \(String(status.st_mode & 0o777, radix: 8)); "
                    + "it must be readable and writable by its owner only (chmod 600)")
        }
    }

    /// Makes what is in the file at `path` durable (fsync), if it is there: for a file that
    /// SQLite changed without syncing, such as the log its truncating checkpoint cuts to
    /// nothing. Opened as ``open(_:flags:role:)`` opens files. False when it could not be
    /// synced (the reason is logged).
    @discardableResult
    static func sync(_ path: String, role: String) -> Bool {
        do {
            guard let fd = try open(path, flags: O_RDONLY, role: role) else { return true }
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw KeychainError.io("cannot sync the \(role) \(path): \(errnoText())") }
            return true
        } catch {
            keychainLogger.warning("a file the keychain changed could not be synced", metadata: ["reason": "\(error)"])
            return false
        }
    }

    /// The contents of the file at `path`, at most `limit` bytes (more is errSecNotAvailable,
    /// "damaged"), or nil when it is missing.
    package static func read(_ path: String, limit: Int, role: String) throws(KeychainError) -> Data? {
        guard let fd = try open(path, flags: O_RDONLY, role: role) else { return nil }
        defer { close(fd) }
        return try readAll(fd, limit: limit, path: path, role: role)
    }

    /// Reads `fd` to its end with a POSIX read loop, refusing more than `limit` bytes.
    package static func readAll(_ fd: Int32, limit: Int, path: String, role: String) throws(KeychainError) -> Data {
        // One byte more than the limit tells a file past it.
        switch SystemCall.read(fd, atMost: limit + 1) {
        case .failure(let error):
            throw .notAvailable("cannot read the \(role) \(path): \(error)")
        case .success(var bytes):
            guard bytes.count <= limit else {
                // The file may be a key.
                bytes.zeroize()
                throw .notAvailable("the \(role) \(path) is damaged: it is too large")
            }
            return bytes
        }
    }

    /// Creates the file at `path` holding `bytes`, 0600, atomically: it is written and
    /// synced under a temporary name, then linked in place. When a file is already there
    /// (another process was first), it is left as it is, unless `replacing`: then the new
    /// file takes the name (a symbolic link there is replaced, never followed).
    package static func install(_ bytes: Data, at path: String, role: String, replacing: Bool = false,
                                mode: mode_t = 0o600) throws(KeychainError) {
        let temporary = path + ".\(getpid()).\(UUID().uuidString).tmp"
        defer { unlink(temporary) }
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .notAvailable("cannot create the \(role) \(path): \(errnoText())") }
        let written = SystemCall.writeAll(fd, bytes)
        let synced = fsync(fd)
        let syncError = errnoText()
        close(fd)
        if case .failure(let error) = written {
            throw .notAvailable("cannot write the \(role) \(path): \(error)")
        }
        guard synced == 0 else {
            throw .notAvailable("cannot write the \(role) \(path): \(syncError)")
        }
        if replacing {
            guard rename(temporary, path) == 0 else {
                throw .notAvailable("cannot install the \(role) \(path): \(errnoText())")
            }
        } else if link(temporary, path) != 0 && errno != EEXIST {
            throw .notAvailable("cannot install the \(role) \(path): \(errnoText())")
        }
        // The new name must survive a power cut like the contents.
        PrivateFolder.sync((path as NSString).deletingLastPathComponent)
    }
}

func errnoText() -> String { String(cString: strerror(errno)) }
