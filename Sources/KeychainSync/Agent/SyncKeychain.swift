import Foundation
import KeychainCore
import Logging

/// A keychain as the sync commands take it: named by its database's path, opened once, and
/// the sync roles built on it. The commands (keychainctl) see only this, never the core.
package struct SyncKeychain: Sendable {
    let files: KeychainFiles
    let store: KeychainStore

    /// Opens the keychain whose database is `databasePath` (`<folder>/<name>.keychain-db`):
    /// the process's one store of it, which keychainctl opened first.
    package static func open(databasePath: String) throws(SyncFailure) -> SyncKeychain {
        let files = KeychainFiles(path: databasePath, directory: KeychainFiles.defaultDirectory())
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
        SyncAgent(files: files, store: store, logger: logger, interval: interval)
    }

    package func status(askServer: Bool, logger: Logger) async throws(SyncFailure) -> SyncStatus {
        try await SyncStatus.read(files: files, store: store, askServer: askServer, logger: logger)
    }

    /// The systemd user unit that runs `executable sync run` on this keychain.
    package func unitFile(executable: String, environment: [String: String]) throws(SyncFailure) -> SyncUnitFile {
        try SyncUnitFile(executable: executable, keychain: files, environment: environment)
    }
}
