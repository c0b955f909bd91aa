import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads with read(2) up to a bound: Foundation's whole-file reads trap on an I/O error
/// (FileHandle) or read without limit (`Data(contentsOf:)`), and an endless input
/// (`/dev/zero`) must end in an error, not in memory exhaustion.
enum BoundedFile {
    /// A descriptor's bytes up to its end or `count` bytes, whichever comes first; the
    /// `errno` of a failed read.
    static func read(_ descriptor: Int32, atMost count: Int) -> Result<Data, POSIXError> {
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            let result = data.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { Glibc.read(descriptor, $0 + filled, count - filled) } ?? 0
            }
            if result == 0 { break }
            if result < 0 {
                let error = errno
                if error == EINTR { continue }
                data.resetBytes(in: 0..<filled)
                return .failure(POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO))
            }
            filled += result
        }
        data.count = filled
        return .success(data)
    }

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
        switch Self.read(fd, atMost: limit + 1) {
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
