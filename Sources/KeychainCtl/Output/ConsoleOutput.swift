import Foundation

/// Standard output and standard error, kept in the order they were written.
///
/// Standard output is buffered when it is a pipe or a file, so it is flushed before
/// anything goes to standard error: `delete-generic-password` prints the item's block and
/// then `password has been deleted.`, and a reader of both streams sees them in that order.
enum ConsoleOutput {
    static func write(_ text: String) {
        print(text, terminator: "")
    }

    /// One line on standard error.
    static func error(_ line: String) {
        fflush(nil)
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
