import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// keychainctl's sync runner: the sync commands run in keychain-sync, a program of their own
/// installed beside keychainctl, so that keychainctl links neither the sync engine nor its
/// network stack and TLS.
///
/// keychainctl parses a sync command line itself (its help and usage errors are keychainctl's),
/// then ``ToolEntry`` hands it over with ``handOver()`` before running anything: the process
/// becomes keychain-sync, with the same arguments, environment, standard descriptors and
/// process id, so signals reach the program doing the work and its exit status is the
/// command's. The runner's methods are reached only by code that runs a parsed command inside
/// a process of its own (the fuzz target), which must not be replaced: they fail.
package enum SyncHandOff: SyncCommandRunner {
    /// The program that runs the sync commands.
    package static let programName = "keychain-sync"

    /// Whether `command` is a sync subcommand as keychainctl parses it, which keychain-sync runs.
    static func runsElsewhere(_ command: any ParsableCommand) -> Bool {
        SyncCommand<Self>.isSubcommand(command)
    }

    /// Replaces this process with keychain-sync from keychainctl's own folder (where the kernel
    /// found this program, links resolved), with this process's arguments; when that fails,
    /// prints why and exits 1.
    static func handOver() -> Never {
        guard let folder = ownFolder() else {
            exitReporting("cannot find the folder keychainctl runs from, where \(programName) is: "
                          + "/proc/self/exe: \(String(cString: strerror(errno)))")
        }
        let program = folder + "/" + programName
        // argv[0] is the program's path; then keychainctl's own arguments, as the kernel gave
        // them (checked to be UTF-8 already), not a copy rebuilt from the parsed command.
        var arguments: [UnsafeMutablePointer<CChar>?] = [strdup(program)]
        for index in 1..<max(1, Int(CommandLine.argc)) {
            arguments.append(CommandLine.unsafeArgv[index])
        }
        arguments.append(nil)
        execv(program, arguments)
        let code = errno
        if code == ENOENT {
            exitReporting("\(program) is missing: keychainctl's sync commands run in the program \(programName), "
                          + "which must be installed in the same folder as keychainctl")
        }
        exitReporting("cannot run \(program): \(String(cString: strerror(code)))")
    }

    /// The folder of the running program, from /proc/self/exe; nil with errno set when the
    /// link cannot be read.
    private static func ownFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The kernel's link is an absolute path: its folder ends at the last slash.
        return String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    }

    private static func exitReporting(_ reason: String) -> Never {
        ConsoleOutput.error("keychainctl: sync: \(reason)")
        exit(ExitStatus.failure.code)
    }

    private static func runsInSyncProgram() -> ToolFailure {
        .other("sync: the sync commands run in \(programName), not in this process")
    }

    package static func setup(_ command: SyncSetup<Self>) async throws { throw runsInSyncProgram() }
    package static func join(_ command: SyncJoin<Self>) async throws { throw runsInSyncProgram() }
    package static func approve(_ command: SyncApprove<Self>) async throws { throw runsInSyncProgram() }
    package static func status(_ command: SyncStatusCommand<Self>) async throws { throw runsInSyncProgram() }
    package static func remove(_ command: SyncRemove<Self>) async throws { throw runsInSyncProgram() }
    package static func leave(_ command: SyncLeave<Self>) async throws { throw runsInSyncProgram() }
    package static func run(_ command: SyncRun<Self>) async throws { throw runsInSyncProgram() }

    /// Only keychain-sync can read a join code: it checks the code after the hand-over, with
    /// the same message and exit status as a usage error here.
    package static func validateJoinCode(_ code: String) throws {}
}
