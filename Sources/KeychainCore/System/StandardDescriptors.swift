#if canImport(Glibc)
import Glibc
#endif

/// Standard input, output and error, which a program may have been started without
/// (`keychainctl ... <&-`, `git-credential-keychain get >&-`).
///
/// A closed descriptor 0, 1 or 2 would be the number the next `open` returns: a file the
/// library opens (a keychain's database) would become "standard input" or "standard output",
/// and a password would be read from it or written into it. Each closed one is therefore
/// taken by `/dev/null` before anything else opens a file.
package enum StandardDescriptors {
    /// Gives each closed standard descriptor to `/dev/null` (read-only for standard input,
    /// write-only for the others) and returns the ones that were closed, so that a program
    /// can tell a closed standard input from an empty one. Call first thing in `main`, on
    /// the main thread, before any file is opened.
    @discardableResult
    package static func occupyClosedOnes() -> [Int32] {
        var closed: [Int32] = []
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            guard fcntl(descriptor, F_GETFD) == -1, errno == EBADF else { continue }
            closed.append(descriptor)
            // The lowest free number is this one, as the ones below it are open.
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
        return closed
    }
}
