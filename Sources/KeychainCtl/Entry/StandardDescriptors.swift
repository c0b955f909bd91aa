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
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            guard fcntl(descriptor, F_GETFD) == -1, errno == EBADF else { continue }
            if descriptor == STDIN_FILENO { inputWasClosed = true }
            // The lowest free number is this one, as the ones below it are open.
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}
