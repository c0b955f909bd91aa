import Foundation
import Security

/// A process that holds a keychain open while the remanence suite changes it: it opens the
/// keychain, reads an item (so its connection has read the log), prints `held STATUS`, and
/// then idles until it is killed. Whatever the library must do to leave no superseded
/// bytes behind, it must do with such processes around.
///
///   remanence-hold NAME ACCOUNT
public enum RemanenceHolder {
    public static let service = "remanence.holder"

    /// Runs the holder for a matching argument list (and never returns); false otherwise.
    public static func run(_ arguments: [String]) -> Bool {
        guard arguments.count == 3, arguments[0] == "remanence-hold" else { return false }
        let current = KeychainEnvironment.current
        let environment = KeychainEnvironment(directory: current.directory, keychainName: arguments[1],
                                              accessGroups: current.accessGroups)
        let read = KeychainEnvironment.withValue(environment) {
            ProofItems.read(service: service, account: arguments[2])
        }
        printNow("held \(read.status)")
        // The parent kills the holder; the limit only spares an orphan if the parent died.
        let limit = Date(timeIntervalSinceNow: 900)
        while Date() < limit { sleep(1) }
        exit(0)
    }
}
