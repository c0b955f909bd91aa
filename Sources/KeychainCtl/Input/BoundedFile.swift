import Foundation
import Security
#if canImport(Glibc)
import Glibc
#endif

/// Reads a file with read(2) up to a bound (`DescriptorIO.read(_:atMost:until:)`):
/// Foundation's whole-file reads trap on an I/O error (FileHandle) or read without limit
/// (`Data(contentsOf:)`), and an endless input (`/dev/zero`) must end in an error, not in
/// memory exhaustion.
enum BoundedFile {
    /// The file at `path`, which must hold at most `limit` bytes; an error that says why not.
    static func read(_ path: String, limit: Int) throws(ToolFailure) -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .other("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        // What was opened, not what the name showed before: a device would read forever
        // (/dev/zero) or read as nothing (/dev/null); a pipe is a file's contents.
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .other("cannot read \(path): \(String(cString: strerror(errno)))") }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFIFO:
            // Opened without waiting for a writer; now the reads wait for the data, as a
            // pipe from another command (`<(...)`) brings it later.
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
                throw .other("cannot read \(path): \(String(cString: strerror(errno)))")
            }
        case S_IFDIR: throw .other("cannot read \(path): it is a folder, not a file")
        default: throw .other("cannot read \(path): it is a device or a socket, not a file")
        }
        switch DescriptorIO.read(fd, atMost: limit + 1) {
        case .failure(let error):
            let reason = error.code == .EISDIR ? "it is a folder" : String(cString: strerror(error.code.rawValue))
            throw .other("cannot read \(path): \(reason)")
        case .success(let data) where data.count > limit:
            throw .other("cannot read \(path): it is larger than \(limit >> 20) MiB, more than an archive of this tool holds")
        case .success(let data):
            return data
        }
    }
}
