import Crypto
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
    /// Whether ``refreshMembership(server:logger:)`` found the group gone from the server and
    /// made it again: then the server's lack of an item says nothing about its deletion.
    package private(set) var madeGroupAgain = false

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
    ///
    /// First it compares the server's rosters of the epochs it holds with its own (by digest,
    /// reading again only one that differs): one signed by a member of the epoch before that
    /// is not its own, or a next roster that does not follow its current one, is a fork
    /// (`.forked`, kept, and every later pass stops). A roster no member signed is only
    /// rejected and logged. A member that detected a fork earlier stops here at once, after
    /// putting its side of the fork on the server again (``publishForkEvidence(server:logger:)``).
    package mutating func refreshMembership(server: SyncServer, logger: Logger) async throws(SyncFailure) {
        if let kept = try state.fork() {
            await publishForkEvidence(server: server, logger: logger)
            throw .forked(kept.fork)
        }
        let group = configuration.group
        let digests: [(epoch: Int64, digest: Data)]
        do {
            digests = try await server.rosterDigests(group.bytes)
        } catch {
            guard try await groupIsGone(error, server: server) else { throw .server(error) }
            try await makeGroupAgain(server: server, logger: logger)
            madeGroupAgain = true
            do {
                digests = try await server.rosterDigests(group.bytes)
            } catch {
                throw .server(error)
            }
        }
        for entry in digests where entry.epoch >= 1 {
            guard let ours = chain.roster(epoch: UInt64(entry.epoch)) else { break }
            guard Data(SHA256.hash(data: ours.encoded)) != entry.digest else { continue }
            let stored: Data?
            do {
                stored = try await server.roster(group.bytes, epoch: entry.epoch)
            } catch {
                throw .server(error)
            }
            guard let stored, let other = try? Roster(encoded: stored), Int64(bitPattern: other.epoch) == entry.epoch else {
                logger.warning("rejected a roster from the sync server", metadata: [
                    "epoch": "\(entry.epoch)", "reason": "\(SyncRejection.malformed(.roster))"])
                continue
            }
            if let fork = chain.fork(shownBy: other) { throw try await reportFork(fork, server: server, logger: logger) }
            if other.hash != ours.hash {
                logger.warning("rejected a roster from the sync server", metadata: [
                    "epoch": "\(entry.epoch)", "reason": "differs from this member's and no member of the epoch before signed it"])
            }
        }
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
                if let fork = chain.fork(shownBy: roster) { throw try await reportFork(fork, server: server, logger: logger) }
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
        // Rosters the server lost below its newest one (rows deleted by whoever holds the
        // database): sent again, or a machine that joins could not check the chain. Those
        // past its newest are the completeness check's to send.
        let held = Set(digests.map(\.epoch))
        if let newest = digests.map(\.epoch).max(), configuration.secrets != nil,
           (0..<min(newest, Int64(bitPattern: chain.current.epoch))).contains(where: { !held.contains($0) }) {
            _ = try await resendRosters(server: server, logger: logger) { $0 < newest && !held.contains($0) }
        }
        if (configuration.secrets?.currentEpoch ?? 0) < chain.current.epoch || configuration.secrets == nil {
            let wraps: [(epoch: Int64, wrap: Data)]
            do {
                wraps = try await server.keyWraps(group.bytes, device: me.bytes)
            } catch {
                throw .server(error)
            }
            // The newest wrap that opens, of an epoch the chain reaches: any member's database
            // role can append a roster nobody signed and a wrap of its epoch addressed to this
            // device, which must not hide the real wrap of the current epoch.
            var opened: GroupSecrets?
            let reached = Int64(bitPattern: chain.current.epoch)
            for wrap in wraps.sorted(by: { $0.epoch > $1.epoch }) where wrap.epoch <= reached {
                do {
                    opened = try KeyWrap(encoded: wrap.wrap).open(as: configuration.device, group: group, chain: chain)
                    break
                } catch {
                    logger.warning("rejected a key wrap from the sync server", metadata: ["epoch": "\(wrap.epoch)", "reason": "\(error)"])
                }
            }
            guard let secrets = opened else { return }
            if secrets.currentEpoch >= (configuration.secrets?.currentEpoch ?? 0) {
                configuration.secrets = secrets
                configuration.membership = .member
                try item.save(configuration)
            }
        }
    }

    /// Whether `error` says that the server no longer holds this member's group (a backup from
    /// before the group was made restored, or its rows deleted by whoever holds the database).
    /// Only a member asks: a device still waiting to join has nothing to bring back.
    ///
    /// When the sync tables themselves are gone, that is a failure saying who can make them:
    /// an agent does not, because a database being restored looks empty to every other
    /// connection until the restore commits, and tables made meanwhile would break it.
    private func groupIsGone(_ error: SyncServerError, server: SyncServer) async throws(SyncFailure) -> Bool {
        guard configuration.membership == .member, isMember else { return false }
        switch error {
        case .notFound:
            return true
        case .rejected:
            let hasSchema: Bool
            do {
                hasSchema = try await server.hasSchema()
            } catch {
                throw .server(error)
            }
            guard hasSchema else {
                throw .server(.rejected("""
                    the sync server has no sync tables (a database restored from a backup made before \
                    sync setup, or still being restored?): its owner can make them with keychainctl sync setup \
                    --server-only
                    """))
            }
            return false
        default:
            return false
        }
    }

    /// Makes the group again on a server that lost it, from the first roster this member
    /// pinned (signed by the founder, so the server learns nothing new and can alter nothing).
    /// The rest comes back as after any restored backup: the completeness check sends the
    /// later rosters with their key wraps, and the records, again from this member's copies.
    private func makeGroupAgain(server: SyncServer, logger: Logger) async throws(SyncFailure) {
        do {
            try await server.createGroup(configuration.group.bytes, genesis: chain.genesis.encoded)
            logger.warning("the sync server had lost the sync group (restored from a backup?); made it again from its first roster")
        } catch .alreadyExists {
            // Another member made it again first.
        } catch {
            throw .server(error)
        }
    }

    /// `.forked` when this member detected a fork earlier: nothing is sent or applied again.
    package func checkNotForked() throws(SyncFailure) {
        if let kept = try state.fork() { throw .forked(kept.fork) }
    }

    /// Keeps `fork` (the first one kept stays), logs it (epochs, device ids and names only),
    /// and returns the failure that stops the pass.
    func forked(_ fork: SyncFork, logger: Logger) throws(SyncFailure) -> SyncFailure {
        try state.saveFork(fork, at: Int64(Date().timeIntervalSince1970 * 1000))
        logger.error("the sync group has forked; syncing stopped", metadata: [
            "epoch": "\(fork.epoch)", "evidence": "\(fork.evidence.rawValue)",
            "device": "\(fork.otherDevice.shortHex) \(fork.otherName)",
            "own_roster_signer": "\(fork.ownSigner.shortHex) \(fork.ownSignerName)"])
        return try .forked(state.fork()?.fork ?? fork)
    }
}
