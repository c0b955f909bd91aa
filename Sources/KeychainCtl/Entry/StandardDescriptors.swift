import Security
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input, output and error, which the process may have been started without
/// (`keychainctl ... <&-`).
///
/// A closed descriptor 0, 1 or 2 would be the number the next `open` returns: the keychain's
/// database would become "standard input", and `--password-stdin` would read it, or output
/// would be written into it. Each closed one is therefore taken by `/dev/null` before
/// anything else opens a file, and a closed standard input is remembered, so that reading a
/// password from it is a clear error rather than an empty password.
enum StandardDescriptors {
    /// Whether standard input was closed when the process started.
    nonisolated(unsafe) private(set) static var inputWasClosed = false

    /// Call first thing in `main`, on the main thread, before any file is opened.
    static func occupyClosedOnes() {
        inputWasClosed = DescriptorIO.occupyClosedStandardDescriptors().contains(STDIN_FILENO)
    }
}
