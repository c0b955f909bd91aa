import ArgumentParser
import Foundation

/// Parses the command line, runs the subcommand and ends the process with the exit status
/// `security` would give.
///
/// ArgumentParser's own `main()` would exit 64 on a usage error and 1 on any other failure;
/// scripts written for `security` expect 2 for a usage error and the low byte of the
/// OSStatus otherwise, so the statuses are mapped here.
///
/// keychainctl's root command is ``KeychainCtl``; keychain-sync, which runs keychainctl's sync
/// commands, has a root of its own with the same name and the sync commands alone.
package enum ToolEntry {
    /// What the program does: standard descriptors made safe, the raw arguments checked to
    /// be UTF-8 (exit 2 naming the first that is not), then ``run(_:root:syncRunner:)``.
    package static func runProcess<Root: ParsableCommand, Runner: SyncCommandRunner>(
        _ root: Root.Type, syncRunner: Runner.Type
    ) -> Never {
        StandardDescriptors.occupyClosedOnes()
        LibraryLogging.bootstrap()
        switch RawArguments.checked(RawArguments.ofProcess()) {
        case .success(let arguments):
            run(arguments, root: root, syncRunner: syncRunner)
        case .failure(let invalid):
            ConsoleOutput.error(invalid.message)
            exit(ExitStatus.usage.code)
        }
    }

    /// Runs the command `arguments` name, under `root`, and exits.
    ///
    /// A sync subcommand parsed by keychainctl is handed over to keychain-sync, from the main
    /// thread before any other starts (a Dispatch thread blocks signals, and a program started
    /// by `exec` keeps the blocked ones). The sync commands, `Runner`'s, are the asynchronous
    /// ones (`AsyncParsableCommand`): in keychain-sync one runs as a task, as an `async` main
    /// would run it, with the main thread handed to Dispatch. The other commands run
    /// synchronously on the main thread, so their start-up pays nothing for the sync ones.
    package static func run<Root: ParsableCommand, Runner: SyncCommandRunner>(
        _ arguments: [String], root: Root.Type, syncRunner: Runner.Type
    ) -> Never {
        let parsed: any ParsableCommand
        do {
            parsed = try root.parseAsRoot(SecurityArguments.rewritten(arguments))
        } catch {
            end(reporting: error, root: root)
        }
        if SyncHandOff.runsElsewhere(parsed) {
            SyncHandOff.handOver()
        }
        if SyncCommand<Runner>.isSubcommand(parsed), var asynchronous = parsed as? any AsyncParsableCommand {
            Task {
                do {
                    try await asynchronous.run()
                    exit(0)
                } catch {
                    end(reporting: error, root: root)
                }
            }
            dispatchMain()
        }
        do {
            var command = parsed
            try command.run()
            exit(0)
        } catch {
            end(reporting: error, root: root)
        }
    }

    /// Prints what `error` says, as keychainctl prints a failure (or the help or version it
    /// carries), and exits with its status.
    private static func end<Root: ParsableCommand>(reporting error: any Error, root: Root.Type) -> Never {
        if let failure = error as? ToolFailure {
            if !failure.message.isEmpty { ConsoleOutput.error(failure.message) }
            exit(failure.exitStatus)
        }
        let code = root.exitCode(for: error)
        let message = root.fullMessage(for: error)
        if code == .success {
            // --help, --version, --generate-completion-script
            ConsoleOutput.write(message + "\n")
            exit(0)
        }
        ConsoleOutput.error(message)
        exit(code == .validationFailure ? ExitStatus.usage.code : code.rawValue)
    }
}
