import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What keeps a file from being created at a path the user gave, in words: the status
/// Keychain Services returns for it (errSecNotAvailable, "You may need to restart your
/// computer") does not say, and Foundation's errors name no path.
enum PathDiagnosis {
    /// Why a file cannot be created at `path`, as far as the file system shows it: a folder
    /// or a device in its place, a missing folder, a folder the user may not write in. nil
    /// when none of these holds. `createsFolders`: whether the missing folders would be made
    /// (a keychain's are), so that only one that cannot be is a problem.
    static func creating(_ path: String, createsFolders: Bool) -> String? {
        var status = stat()
        if lstat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG: return nil
            case S_IFDIR: return "\(path) is a folder"
            case S_IFLNK: return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR ? "\(path) is a folder" : nil
            default: return "\(path) is not a regular file (a device, a pipe or a socket)"
            }
        }
        let folder = parent(of: path)
        if stat(folder, &status) != 0 {
            guard errno == ENOENT || errno == ENOTDIR else { return "cannot inspect the folder \(folder): \(errnoText())" }
            var existing = parent(of: folder)
            while stat(existing, &status) != 0 {
                let next = parent(of: existing)
                if next == existing { return "there is no folder \(folder)" }
                existing = next
            }
            if status.st_mode & S_IFMT != S_IFDIR { return "\(existing) is not a folder" }
            guard createsFolders else { return "there is no folder \(folder)" }
            if access(existing, W_OK | X_OK) != 0 {
                return "there is no folder \(folder), and you may not create one in \(existing) (\(errnoText()))"
            }
            return "there is no folder \(folder), and none can be created in \(existing)"
        }
        if status.st_mode & S_IFMT != S_IFDIR { return "\(folder) is not a folder" }
        if access(folder, W_OK | X_OK) != 0 { return "you may not create files in the folder \(folder) (\(errnoText()))" }
        // The keychain library's own rule for the folders of keychains.
        if createsFolders, status.st_uid != geteuid() || status.st_mode & 0o022 != 0 {
            return "the folder \(folder) belongs to another user or others may write in it "
                + "(mode \(String(status.st_mode & 0o7777, radix: 8))); a keychain's folder must be writable by you alone"
        }
        return nil
    }

    /// That `argument`, a keychain given by its path, names a folder rather than a keychain
    /// file; nil when it does not. A bare name is a keychain in the keychains folder, never a
    /// folder of the current one.
    static func namingFolder(_ argument: String) -> String? {
        var status = stat()
        guard argument.contains("/"), stat(argument, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
        let inside = argument.hasSuffix("/") ? argument : argument + "/"
        return "\(argument) is a folder, not a keychain; name a keychain file in it, such as \(inside)NAME.keychain-db"
    }

    /// The folder that holds `path`: `.` for a bare name.
    private static func parent(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
