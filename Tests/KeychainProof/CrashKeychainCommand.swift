import Foundation
import Security

/// The worker processes of the keychain crash run, as subcommands of the tests' helper and
/// of the long runs' executable. Returns false for an argument list that is none of them.
///
///   crash-keychain-writer JOURNAL password|create SEED
///   crash-keychain-verify JOURNAL ITEM-JOURNAL
public enum CrashKeychainCommand {
    public static func run(_ arguments: [String]) -> Bool {
        switch (arguments.first, arguments.count) {
        case ("crash-keychain-writer", 4):
            guard let mode = CrashKeychainWriter.Mode(rawValue: arguments[2]), let seed = UInt64(arguments[3]),
                  var writer = try? CrashKeychainWriter(journal: URL(fileURLWithPath: arguments[1]), mode: mode, seed: seed)
            else { exit(2) }
            writer.run()
        case ("crash-keychain-verify", 3):
            let database = KeychainEnvironment.current.directory.appendingPathComponent("login.keychain-db")
            let outcome = CrashKeychainVerifier.run(journal: URL(fileURLWithPath: arguments[1]),
                                                    itemJournal: URL(fileURLWithPath: arguments[2]), database: database)
            printNow(outcome.line)
            exit(outcome.passed ? 0 : 1)
        default:
            return false
        }
        return true
    }
}
