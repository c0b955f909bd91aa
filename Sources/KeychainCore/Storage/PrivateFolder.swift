import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The folders that hold the library's files (a keychain folder, the machine secret's).
///
/// A folder the library creates is made 0700, with any missing parents. A folder that
/// exists keeps its mode: the library never changes what it did not create. It is accepted
/// only when it belongs to this user and no one else may write in it (no group or other
/// write bit, sticky or not): someone who may write in it could replace or remove the files
/// in it, and leave links or FIFOs where they will be opened.
package enum PrivateFolder {
    /// Creates the folder `url` where it is missing and checks it. Errors are
    /// errSecNotAvailable saying why; `role` names the folder in them ("keychain folder").
    package static func prepare(_ url: URL, role: String) throws(KeychainError) {
        let path = url.standardizedFileURL.path
        try create(path, role: role)
        // A link to a folder is followed: what counts is who may write in the folder reached.
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .notAvailable("cannot open the \(role) \(path): \(errnoText())") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw .notAvailable("cannot inspect the \(role) \(path): \(errnoText())")
        }
        guard status.st_uid == geteuid() else {
            throw .notAvailable("the \(role) \(path) belongs to another user; keychains belong in a folder of their own user")
        }
        guard status.st_mode & 0o022 == 0 else {
            throw .notAvailable(
                "the \(role) \(path) is writable by others (mode \(String(status.st_mode & 0o7777, radix: 8))); "
                    + "keychains belong in a folder only their user may write, such as the default one")
        }
    }

    /// Makes `path` and its missing parents, each 0700; racing processes may make them too.
    private static func create(_ path: String, role: String) throws(KeychainError) {
        var missing: [String] = []
        var current = path
        var status = stat()
        while !current.isEmpty, current != "/", lstat(current, &status) != 0 {
            guard errno == ENOENT else {
                throw .notAvailable("cannot inspect the \(role) \(current): \(errnoText())")
            }
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for folder in missing.reversed() {
            if mkdir(folder, 0o700) != 0 {
                guard errno == EEXIST else { throw .notAvailable("cannot create the \(role) \(folder): \(errnoText())") }
                continue
            }
            sync((folder as NSString).deletingLastPathComponent)
        }
    }

    /// Syncs a folder, so that the names created or renamed in it survive a power cut as
    /// the files' contents do. Best effort: a folder that cannot be opened is left.
    static func sync(_ path: String) {
        let fd = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
