import Foundation
import Logging

/// `keychainctl sync setup --server-only`: the database's owner (or an administrator) makes
/// the sync tables or brings them up to date, with the `keychain_sync_member` role and its
/// rights, without creating a group or touching a keychain. Each machine then connects with
/// a login role of its own in that role.
package enum SyncServerPreparation {
    /// Migrates the schema at `address`; whether `keychain_sync_member` exists afterwards (the
    /// migration creates it only when the connecting role may create roles).
    package static func prepare(server address: String, logger: Logger) async throws(SyncFailure) -> Bool {
        try await SyncMembership.withServer(address, logger: logger) { (server: SyncServer) async throws(SyncFailure) -> Bool in
            do throws(SyncServerError) {
                try await server.migrate()
                return try await server.memberRoleExists()
            } catch {
                throw .server(error)
            }
        }
    }
}
