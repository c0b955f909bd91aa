import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--password-stdin`: a password from a pipe or a file rather than from the command line,
/// where `ps` shows it, or from a prompt, which a script cannot answer. Every subcommand
/// that takes a password offers it.
struct StandardInputPassword: ParsableArguments {
    @Flag(name: .customLong("password-stdin"),
          help: "Read the password from standard input, a pipe or a file, to its end; one final newline is dropped.")
    var isSet = false

    func validate() throws {
        if isSet, isatty(STDIN_FILENO) == 1 {
            throw ValidationError(
                "--password-stdin reads a pipe or a file, and standard input is a terminal: use the password prompt instead.")
        }
    }

    /// The password read, when `--password-stdin` was given.
    func read() -> Data? {
        guard isSet else { return nil }
        var data = FileHandle.standardInput.readDataToEndOfFile()
        if data.last == UInt8(ascii: "\n") {
            data.removeLast()
            if data.last == UInt8(ascii: "\r") { data.removeLast() }
        }
        return data
    }
}
