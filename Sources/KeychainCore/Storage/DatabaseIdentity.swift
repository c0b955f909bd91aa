import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Which file a keychain's database is: its device and inode numbers, the same whatever path
/// reaches it (through a linked folder, with `..`, relative to another working folder, or by
/// a second hard link).
///
/// The process's stores are keyed by it (see ``KeychainStore/shared(_:create:)``) rather
/// than by the path: POSIX locks belong to a file and a process, not to a name, so a second
/// store of the same file in one process would drop the first one's locks the moment it
/// opened and closed the file, whichever way the path was spelled.
struct DatabaseIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The database of `files`, or nil when there is none (or its folder cannot be searched).
    ///
    /// Looked up by name (`lstat`), without opening anything: closing any descriptor of the
    /// file would drop the locks this process holds on it. A link in the folder's path is
    /// followed, as a keychain folder reached through a link is accepted (see
    /// ``PrivateFolder``); a link in the database's own place is not, as the database is never
    /// opened through one (see ``PrivateFile``).
    init?(of files: KeychainFiles) {
        var status = stat()
        // Through `withCString`, which hands over the string's own bytes: passing the String
        // itself made a C copy of the path (an allocation and a free) on every call.
        guard Self.databasePath(of: files).withCString({ lstat($0, &status) }) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// The path of the database of the files last looked up. Every call of the process looks
    /// its store up, nearly always for one keychain, and building the path through `URL`
    /// cost a find an eighth of its instructions; comparing the folder and name is cheap.
    private static let lastPath = Mutex<(directory: URL, name: String, path: String)?>(nil)

    private static func databasePath(of files: KeychainFiles) -> String {
        let known = lastPath.withLock { last -> String? in
            guard let last, last.name == files.name, last.directory == files.directory else { return nil }
            return last.path
        }
        if let known { return known }
        let path = files.database.path
        lastPath.withLock { $0 = (files.directory, files.name, path) }
        return path
    }
}
