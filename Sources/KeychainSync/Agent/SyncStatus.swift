import Foundation
import KeychainCore
import Logging

/// What `keychainctl sync status` reports: read from this member's configuration and state,
/// and, when the server answers, the devices waiting to be approved.
package struct SyncStatus: Sendable {
    package struct Member: Sendable {
        package var id: String
        package var name: String
        package var isThisDevice: Bool
    }

    package var server: String
    package var group: String
    package var device: Member
    package var membership: SyncConfiguration.Membership
    package var removed: Bool
    package var epoch: UInt64
    package var members: [Member]
    package var pendingLocalChanges: Int
    package var syncedItems: Int
    package var lastSync: Date?
    package var lastProblem: String?
    /// The fork this member detected and when: it no longer syncs the group.
    package var fork: SyncFork?
    package var forkDetected: Date?
    /// When a pass last found the server incomplete, and what it did.
    package var lastHealing: String?
    /// Names of devices waiting for approval; nil when the server could not be asked.
    package var waiting: [String]?
    /// Set when the database role this member connects with can delete or rewrite rows
    /// (see ``ServerRoleCheck``): what to tell the user.
    package var roleWarning: String?

    /// The status of the keychain `files` names.
    package static func read(files: KeychainFiles, store: KeychainStore, askServer: Bool,
                             logger: Logger) async throws(SyncFailure) -> SyncStatus {
        let session = try SyncSession.load(files: files, store: store)
        let configuration = session.configuration
        let me = session.me
        func member(_ identity: DevicePublicIdentity) -> Member {
            Member(id: identity.id.shortHex, name: identity.name, isThisDevice: identity.id == me)
        }
        let pending: Int
        let pushed = try session.state.integer(.logPushed)
        do {
            pending = try store.syncLogCount(after: pushed)
        } catch {
            throw .keychain(error)
        }
        let last = try session.state.integer(.lastSync)
        var waiting: [String]?
        let fork = try session.state.fork()
        var roleWarning: String?
        if askServer, session.isMember, fork == nil {
            // Closed whether the question is answered or not.
            let answer = try? await SyncMembership.withServer(configuration.server, logger: logger) {
                (server: SyncServer) async throws(SyncFailure) -> (waiting: [String], roleWarning: String?) in
                let requests: [(device: Data, request: Data)]
                do throws(SyncServerError) {
                    requests = try await server.joinRequests(configuration.group.bytes)
                } catch {
                    throw .server(error)
                }
                return (requests.compactMap { try? JoinRequest(encoded: $0.request).device.name },
                        await ServerRoleCheck.warning(for: server))
            }
            waiting = answer?.waiting
            roleWarning = answer?.roleWarning
        }
        let address = (try? SyncServerAddress(parsing: configuration.server))?.description ?? "(an address that no longer parses)"
        return SyncStatus(
            server: address, group: configuration.group.hex,
            device: member(configuration.device.publicIdentity), membership: configuration.membership,
            removed: configuration.membership == .member && !session.isMember,
            epoch: session.chain.current.epoch, members: session.chain.current.members.map(member),
            pendingLocalChanges: pending, syncedItems: try session.state.mirrorCount(),
            lastSync: last > 0 ? Date(timeIntervalSince1970: Double(last) / 1000) : nil,
            lastProblem: try session.state.text(.lastProblem),
            fork: fork?.fork, forkDetected: fork.map { Date(timeIntervalSince1970: Double($0.detectedAt) / 1000) },
            lastHealing: try session.state.text(.lastHealing),
            waiting: waiting, roleWarning: roleWarning)
    }
}
