import ArgumentParser
import Foundation

/// Parses the command line, runs the subcommand and ends the process with the exit status
/// `security` would give.
///
/// ArgumentParser's own `main()` would exit 64 on a usage error and 1 on any other failure;
/// scripts written for `security` expect 2 for a usage error and the low byte of the
/// OSStatus otherwise, so the statuses are mapped here.
enum ToolEntry {
    static func run(_ arguments: [String]) -> Never {
        do {
            let arguments = SecurityArguments.rewritten(arguments)
            var command = try parsedBySubcommand(arguments) ?? KeychainCtl.parseAsRoot(arguments)
            try command.run()
            exit(0)
        } catch let failure as ToolFailure {
            ConsoleOutput.error(failure.message)
            exit(failure.exitStatus)
        } catch {
            let code = KeychainCtl.exitCode(for: error)
            let message = KeychainCtl.fullMessage(for: error)
            if code == .success {
                // --help, --version, --generate-completion-script
                ConsoleOutput.write(message + "\n")
                exit(0)
            }
            ConsoleOutput.error(message)
            exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }

    /// The command, parsed by the subcommand that `arguments` names, or nil to parse them
    /// against the whole tree.
    ///
    /// The whole tree makes the Swift runtime build the metadata of every subcommand's
    /// options, and look for a completion-script request among them: two thirds of the CPU
    /// time of a `find-generic-password -w` process (perf). Help, completion requests and
    /// every parse error still go through the root, so their output is the same.
    private static func parsedBySubcommand(_ arguments: [String]) -> ParsableCommand? {
        guard let name = arguments.first,
              let subcommand = KeychainCtl.configuration.subcommands.first(where: { $0._commandName == name })
        else { return nil }
        return try? subcommand.parse(Array(arguments.dropFirst()))
    }
}
