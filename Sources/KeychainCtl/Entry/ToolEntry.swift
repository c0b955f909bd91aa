import ArgumentParser
import Foundation

/// Parses the command line, runs the subcommand and ends the process with the exit status
/// `security` would give.
///
/// ArgumentParser's own `main()` would exit 64 on a usage error and 1 on any other failure;
/// scripts written for `security` expect 2 for a usage error and the low byte of the
/// OSStatus otherwise, so the statuses are mapped here.
package enum ToolEntry {
    /// What the program does: standard descriptors made safe, the raw arguments checked to
    /// be UTF-8 (exit 2 naming the first that is not), then ``run(_:)``.
    package static func runProcess() -> Never {
        StandardDescriptors.occupyClosedOnes()
        LibraryLogging.bootstrap()
        switch RawArguments.checked(RawArguments.ofProcess()) {
        case .success(let arguments):
            run(arguments)
        case .failure(let invalid):
            ConsoleOutput.error(invalid.message)
            exit(ExitStatus.usage.code)
        }
    }

    /// Runs the command `arguments` name and exits.
    ///
    /// The sync commands are asynchronous (`AsyncParsableCommand`): one runs as a task, as an
    /// `async` main would run it, with the main thread handed to Dispatch. The other commands
    /// run synchronously on the main thread, so their start-up pays nothing for the sync ones.
    package static func run(_ arguments: [String]) -> Never {
        let parsed: any ParsableCommand
        do {
            parsed = try KeychainCtl.parseAsRoot(SecurityArguments.rewritten(arguments))
        } catch {
            end(reporting: error)
        }
        if var asynchronous = parsed as? any AsyncParsableCommand {
            Task {
                do {
                    try await asynchronous.run()
                    exit(0)
                } catch {
                    end(reporting: error)
                }
            }
            dispatchMain()
        }
        do {
            var command = parsed
            try command.run()
            exit(0)
        } catch {
            end(reporting: error)
        }
    }

    /// Prints what `error` says, as keychainctl prints a failure (or the help or version it
    /// carries), and exits with its status.
    private static func end(reporting error: any Error) -> Never {
        if let failure = error as? ToolFailure {
            if !failure.message.isEmpty { ConsoleOutput.error(failure.message) }
            exit(failure.exitStatus)
        }
        let code = KeychainCtl.exitCode(for: error)
        let message = KeychainCtl.fullMessage(for: error)
        if code == .success {
            // --help, --version, --generate-completion-script
            ConsoleOutput.write(message + "\n")
            exit(0)
        }
        ConsoleOutput.error(message)
        exit(code == .validationFailure ? ExitStatus.usage.code : code.rawValue)
    }
}
