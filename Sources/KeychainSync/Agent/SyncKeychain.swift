import Foundation
import KeychainCore
import Logging

/// A keychain as the sync commands take it: named by its database's path, opened once, and
/// the sync roles built on it. The commands (keychainctl) see only this, never the core.
package struct SyncKeychain: Sendable {
    let files: KeychainFiles
    let store: KeychainStore

    /// Opens the keychain whose database is `databasePath` (`<folder>/<name>.keychain-db`).
    package static func open(databasePath: String) throws(SyncFailure) -> SyncKeychain {
        let database = URL(fileURLWithPath: databasePath)
        var name = database.lastPathComponent
        if name.hasSuffix(".keychain-db") { name.removeLast(".keychain-db".count) }
        // The folder as SecKeychain(path:) names it, so that the process's shared store of
        // the keychain (which keychainctl opened first) is the one used: one connection per
        // database in a process (a second open would drop the first one's POSIX locks).
        let files = KeychainFiles(directory: database.deletingLastPathComponent().standardizedFileURL, name: name)
        do {
            return SyncKeychain(files: files, store: try KeychainStore.shared(files, create: false))
        } catch {
            throw .keychain(error)
        }
    }

    package func membership(logger: Logger) -> SyncMembership {
        SyncMembership(files: files, store: store, logger: logger)
    }

    package func agent(logger: Logger, interval: Duration) -> SyncAgent {
        SyncAgent(files: files, logger: logger, interval: interval)
    }

    package func status(askServer: Bool, logger: Logger) async throws(SyncFailure) -> SyncStatus {
        try await SyncStatus.read(files: files, store: store, askServer: askServer, logger: logger)
    }

    /// The systemd user unit that runs `executable sync run` on this keychain.
    package func unitFile(executable: String, environment: [String: String]) throws(SyncFailure) -> SyncUnitFile {
        try SyncUnitFile(executable: executable, keychain: files, environment: environment)
    }
}
