import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Standard output and standard error, kept in the order they were written.
///
/// Standard output is buffered when it is a pipe or a file, so it is flushed before
/// anything goes to standard error: `delete-generic-password` prints the item's block and
/// then `password has been deleted.`, and a reader of both streams sees them in that order.
enum ConsoleOutput {
    static func write(_ text: String) {
        print(text, terminator: "")
    }

    /// One line on standard error. A standard error that cannot be written to leaves
    /// nowhere to say so: the line is dropped, and the exit status still tells.
    static func error(_ line: String) {
        fflush(nil)
        _ = writeAll(Data((line + "\n").utf8), to: STDERR_FILENO)
    }

    /// Bytes on standard output exactly as they are, after what was written before: a
    /// password as stored, which text output would change. A failed write is an error that
    /// says why (a closed pipe, a full disk).
    static func writeBytes(_ data: Data) throws(ToolFailure) {
        fflush(nil)
        if let code = writeAll(data, to: STDOUT_FILENO) {
            throw .other("cannot write to standard output: \(String(cString: strerror(code)))")
        }
    }

    /// Writes every byte with write(2), again after an interruption or a partial write;
    /// the errno of a failure, nil on success. FileHandle's write would trap on an error.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var written = 0
            while written < buffer.count {
                let result = Glibc.write(descriptor, base + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return nil
        }
    }
}
