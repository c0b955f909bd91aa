import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--passphrase-stdin`: a file's passphrase (PKCS #12) from a pipe or a file rather than the
/// command line, read as `--password-stdin` reads a password.
struct StandardInputPassphrase: ParsableArguments {
    @Flag(name: .customLong("passphrase-stdin"),
          help: "Read the passphrase from standard input, a pipe or a file, to its end; one final newline is dropped. At most 64 KiB.")
    var isSet = false

    func validate() throws {
        if isSet, isatty(STDIN_FILENO) == 1 {
            throw ValidationError(
                "--passphrase-stdin reads a pipe or a file, and standard input is a terminal: use the passphrase prompt instead.")
        }
    }

    /// The passphrase read, when `--passphrase-stdin` was given.
    func read() throws(ToolFailure) -> Data? {
        try reader.read()
    }

    /// The same reading as `--password-stdin`'s: one mechanism for both.
    private var reader: StandardInputPassword {
        var reader = StandardInputPassword()
        reader.isSet = isSet
        return reader
    }
}
