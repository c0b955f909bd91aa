#if canImport(Glibc)
import Glibc
#endif

/// Starting a program the library talks to (an askpass agent, pinentry): without a shell,
/// with signals unblocked and at their default actions whatever this process's threads block
/// or ignore, standard input from the caller's pipe or `/dev/null`, standard output into the
/// caller's pipe, and no other descriptor of this process.
package enum ChildProgram {
    /// Why a program could not be started: the errno of `posix_spawn`.
    package struct StartFailure: Error {
        package let code: Int32
        package var reason: String { String(cString: strerror(code)) }
    }

    /// Makes a pipe whose ends close on exec, so that no other child inherits them (glibc's
    /// `pipe2`, a plain pipe where it is missing); 0, or -1 with `errno` set.
    package static func makePipe(_ ends: inout [Int32]) -> Int32 {
        if let pipeClosingOnExec { return pipeClosingOnExec(&ends, O_CLOEXEC) }
        return pipe(&ends)
    }

    /// Starts `path` with `arguments` (after its own path as argv[0]); its standard error is
    /// this process's unless `discardErrors`. The caller closes its copies of the child's ends.
    package static func start(_ path: String, _ arguments: [String], input: Int32?, output: Int32,
                              discardErrors: Bool) throws(StartFailure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        if discardErrors { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        _ = closeFrom.map { $0(&actions, 3) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw StartFailure(code: spawned) }
        return child
    }

    /// glibc's pipe2 and posix_spawn_file_actions_addclosefrom_np (2.34), which Swift's Glibc
    /// module does not import (`_GNU_SOURCE` only), looked up by name; nil where missing.
    private static let pipeClosingOnExec = glibcFunction(
        "pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    private static let closeFrom = glibcFunction(
        "posix_spawn_file_actions_addclosefrom_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)

    /// A glibc function that Swift's Glibc module does not import, looked up by name; nil
    /// where this glibc lacks it.
    package static func glibcFunction<F>(_ symbol: String, as type: F.Type) -> F? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol).map { unsafeBitCast($0, to: type) }
    }
}
