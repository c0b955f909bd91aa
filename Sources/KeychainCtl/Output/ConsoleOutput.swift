import Foundation
import Security
#if canImport(Glibc)
import Glibc
#endif

/// Standard output and standard error, kept in the order they were written.
///
/// Standard output is buffered when it is a pipe or a file, so it is flushed before
/// anything goes to standard error: `delete-generic-password` prints the item's block and
/// then `password has been deleted.`, and a reader of both streams sees them in that order.
package enum ConsoleOutput {
    package static func write(_ text: String) {
        print(text, terminator: "")
    }

    /// One line on standard error. A standard error that cannot be written to leaves
    /// nowhere to say so: the line is dropped, and the exit status still tells.
    package static func error(_ line: String) {
        fflush(nil)
        _ = DescriptorIO.writeAll(Data((line + "\n").utf8), to: STDERR_FILENO)
    }

    /// Bytes on standard output exactly as they are, after what was written before: a
    /// password as stored, which text output would change. A failed write is an error that
    /// says why (a closed pipe, a full disk).
    static func writeBytes(_ data: Data) throws(ToolFailure) {
        fflush(nil)
        if let code = DescriptorIO.writeAll(data, to: STDOUT_FILENO) {
            throw .other("cannot write to standard output: \(String(cString: strerror(code)))")
        }
    }
}
