import KeychainCore
#if canImport(Glibc)
import Glibc
#endif

/// The times and size of a file itself (a link is not followed), with its birth time where
/// the filesystem records one: glibc's statx (2.28), which Swift's Glibc module does not
/// import (`_GNU_SOURCE` only), looked up by name as ChildProgram does; lstat where it is
/// missing. Foundation's creationDate on Linux is the inode change time, not the birth.
struct FileTimes {
    /// Seconds since 1970 of the last change of the contents.
    let modified: Int64
    /// Seconds since 1970 of the file's creation; nil where the filesystem does not say.
    let birth: Int64?
    let size: UInt64

    /// The times of the file at `path`; nil when there is none; an errno otherwise.
    static func of(_ path: String) -> Result<FileTimes?, Errno> {
        if let statx = Self.statx {
            // struct statx of <linux/stat.h>: a fixed kernel layout of 256 bytes.
            var buffer = [UInt8](repeating: 0, count: 256)
            let status = buffer.withUnsafeMutableBytes { statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, Self.wanted, $0.baseAddress) }
            if status == 0 {
                return buffer.withUnsafeBytes { (raw) -> Result<FileTimes?, Errno> in
                    let mask = raw.load(fromByteOffset: 0, as: UInt32.self)
                    let birth = mask & Self.birthTime != 0 ? raw.load(fromByteOffset: 80, as: Int64.self) : nil
                    return .success(FileTimes(modified: raw.load(fromByteOffset: 112, as: Int64.self),
                                              birth: birth.flatMap { $0 > 0 ? $0 : nil },
                                              size: raw.load(fromByteOffset: 40, as: UInt64.self)))
                }
            }
            let code = errno
            if code != ENOSYS { return code == ENOENT ? .success(nil) : .failure(Errno(code)) }
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            let code = errno
            return code == ENOENT ? .success(nil) : .failure(Errno(code))
        }
        return .success(FileTimes(modified: Int64(status.st_mtim.tv_sec), birth: nil, size: UInt64(status.st_size)))
    }

    /// An errno, for messages.
    struct Errno: Error {
        let code: Int32
        init(_ code: Int32) { self.code = code }
        var text: String { String(cString: strerror(code)) }
    }

    /// STATX_BASIC_STATS | STATX_BTIME, and STATX_BTIME alone, of <linux/stat.h>.
    private static let wanted: UInt32 = 0x7FF | 0x800
    private static let birthTime: UInt32 = 0x800

    private static let statx = ChildProgram.glibcFunction(
        "statx", as: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UInt32, UnsafeMutableRawPointer?) -> Int32).self)
}
