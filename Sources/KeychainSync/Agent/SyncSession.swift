import Foundation
import KeychainCore
import Logging

/// One member's view of its group for the length of a command or a pass: the keychain, the
/// configuration kept in it, the verified roster chain and the agent's state. Loaded afresh
/// by every pass, so that a command that changed the configuration (an approval, a removal)
/// is seen by a running agent at its next pass.
package struct SyncSession: Sendable {
    package let files: KeychainFiles
    package let store: KeychainStore
    package var configuration: SyncConfiguration
    package var chain: RosterChain
    package let state: SyncState

    /// The configuration item of `store`.
    var item: SyncConfigurationItem { SyncConfigurationItem(store: store) }

    /// Loads the session of the keychain `files` name; `.notConfigured` when it is in no group.
    package static func load(files: KeychainFiles, store: KeychainStore) throws(SyncFailure) -> SyncSession {
        guard let configuration = try SyncConfigurationItem(store: store).load() else { throw .notConfigured }
        let state = try SyncState.open(files: files)
        let encoded = try state.rosters()
        guard let first = encoded.first else { throw .damaged("the sync state holds no roster; run keychainctl sync leave, then join again") }
        var chain: RosterChain
        do {
            chain = try RosterChain(genesis: try Roster(encoded: first), pinnedHash: configuration.genesisHash)
            for next in encoded.dropFirst() { try chain.append(try Roster(encoded: next)) }
        } catch {
            throw .rejected(error)
        }
        return SyncSession(files: files, store: store, configuration: configuration, chain: chain, state: state)
    }

    package var me: DeviceID { configuration.device.publicIdentity.id }

    /// Whether this device is in the group's current roster.
    package var isMember: Bool { chain.current.members.contains { $0.id == me } }

    /// Reads the rosters and key wraps the server has beyond what this member knows, verifies
    /// them against the pinned chain, and keeps what passed. A member that the newest roster
    /// no longer lists is `.removed`.
    package mutating func refreshMembership(server: SyncServer, logger: Logger) async throws(SyncFailure) {
        let group = configuration.group
        let newer: [(epoch: Int64, roster: Data)]
        do {
            newer = try await server.rosters(group.bytes, after: Int64(bitPattern: chain.current.epoch))
        } catch {
            throw .server(error)
        }
        for entry in newer.sorted(by: { $0.epoch < $1.epoch }) {
            do {
                let roster = try Roster(encoded: entry.roster)
                guard Int64(bitPattern: roster.epoch) == entry.epoch else { throw SyncRejection.malformed(.roster) }
                try chain.append(roster)
                try state.saveRoster(roster)
            } catch let rejection as SyncRejection {
                // A roster that does not follow the chain is the server's doing (or a forger's):
                // it is never taken, and nothing after it can be.
                logger.warning("rejected a roster from the sync server", metadata: ["epoch": "\(entry.epoch)", "reason": "\(rejection)"])
                break
            } catch let failure as SyncFailure {
                throw failure
            } catch {
                throw .damaged("a roster could not be kept")
            }
        }
        guard isMember else {
            if configuration.membership == .member { throw .removed }
            return
        }
        if (configuration.secrets?.currentEpoch ?? 0) < chain.current.epoch || configuration.secrets == nil {
            let wraps: [(epoch: Int64, wrap: Data)]
            do {
                wraps = try await server.keyWraps(group.bytes, device: me.bytes)
            } catch {
                throw .server(error)
            }
            guard let newest = wraps.max(by: { $0.epoch < $1.epoch }) else { return }
            let secrets: GroupSecrets
            do {
                secrets = try KeyWrap(encoded: newest.wrap).open(as: configuration.device, group: group, chain: chain)
            } catch {
                logger.warning("rejected a key wrap from the sync server", metadata: ["epoch": "\(newest.epoch)", "reason": "\(error)"])
                return
            }
            if secrets.currentEpoch >= (configuration.secrets?.currentEpoch ?? 0) {
                configuration.secrets = secrets
                configuration.membership = .member
                try item.save(configuration)
            }
        }
    }
}
