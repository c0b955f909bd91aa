import Foundation

/// Whether the database role a machine connects with can delete or rewrite the sync tables'
/// rows, and what the user is told then: such a role (the tables' owner, a superuser, or one
/// granted more than members need) lets that machine, even once removed from the group,
/// delete other members' rosters, key wraps and records, which a member's role cannot.
package enum ServerRoleCheck {
    /// The plain warning for `role`, with what to do.
    package static func warning(role: String) -> String {
        "the database role \(role) can delete and rewrite rows of the sync tables (it owns them, is a superuser, "
            + "or was granted more than members need), so this machine could delete other members' rosters, key wraps "
            + "and records. Give each machine a login role of its own in keychain_sync_member instead: "
            + "CREATE ROLE <name> LOGIN PASSWORD '...' IN ROLE keychain_sync_member (see \"Database roles\" in docs/Sync.md)"
    }

    /// The warning when the role `server` connects with can rewrite rows; nil when it cannot,
    /// or when the server did not answer the question (the next pass asks nothing more).
    package static func warning(for server: SyncServer) async -> String? {
        guard (try? await server.connectedRoleCanRewriteRows()) == true else { return nil }
        return warning(role: await server.role)
    }
}
