import Foundation
import TestSupport

/// "A removal raced by the removed member", played during the convergence run: one member
/// removes another with `keychainctl sync remove`; the removed member, as an attacker holding
/// the database's owner role, deletes that roster and its key wraps with SQL, then removes the
/// remover. It wins when it does so before its agent reads its removal (then the group has
/// forked, and every member must say so); it loses when its agent read the removal first, or
/// the remover's agent sent the deleted roster again (healing a server that lost it): then its
/// own removal command is refused, and the two others go on as a group without it.
struct SyncRemovalRace {
    let remover: SyncMember
    let removed: SyncMember
    /// The key epoch of the removal, deleted from the server.
    let epoch: String
    /// Whether the removed member's removal of the remover was accepted: the fork.
    let counterRemoved: Bool
    /// Why the counter-removal was refused, when it was.
    let refusal: String

    /// Runs the race between `remover` and `removed` on `server`. With `stopRemovedAgent`, the
    /// attacker stops its agent first, so it surely reads nothing before its counter-removal;
    /// otherwise its agent (if running) races the SQL.
    static func run(remover: SyncMember, removed: SyncMember, server: PostgresTestServer,
                    stopRemovedAgent: Bool) throws -> SyncRemovalRace {
        if stopRemovedAgent { removed.killAgent() }
        // Another member's change reaching the group while the removal reads it makes the
        // command ask to be run again; it is, as a user would.
        var removal = try remover.run("sync", "remove", removed.name)
        for _ in 0..<5 where removal.status != 0 && removal.errors.contains("run the command again") {
            removal = try remover.run("sync", "remove", removed.name)
        }
        guard removal.status == 0 else { throw SyncTestFailure("sync remove \(removed.name) on \(remover.name): \(removal.errors)") }
        let epoch = try server.psql("SELECT max(epoch) FROM keychain_sync_rosters").trimmingCharacters(in: .whitespacesAndNewlines)
        try server.psql("DELETE FROM keychain_sync_key_wraps WHERE epoch = \(epoch); DELETE FROM keychain_sync_rosters WHERE epoch = \(epoch)")
        var counter = try removed.run("sync", "remove", remover.name)
        for _ in 0..<5 where counter.status != 0 && counter.errors.contains("run the command again") {
            counter = try removed.run("sync", "remove", remover.name)
        }
        return SyncRemovalRace(remover: remover, removed: removed, epoch: epoch, counterRemoved: counter.status == 0,
                               refusal: counter.status == 0 ? "" : counter.errors)
    }

    /// What `sync status --offline` says of `member`'s fork: whether it reports one.
    static func reportsFork(_ member: SyncMember) throws -> Bool {
        try member.run("sync", "status", "--offline").output.contains("FORK (detected ")
    }

    /// Whether `member`'s state says it was removed from the group.
    static func knowsItWasRemoved(_ member: SyncMember) throws -> Bool {
        try member.run("sync", "status", "--offline").output.contains("state: removed from the group")
    }
}
