import Foundation
import KeychainCore
import Logging

extension SyncSession {
    /// Keeps `fork` (see ``forked(_:logger:)``), tells the other history of it
    /// (``publishForkEvidence(server:logger:)``), and returns the failure that stops the pass.
    func reportFork(_ fork: SyncFork, server: SyncServer, logger: Logger) async throws(SyncFailure) -> SyncFailure {
        let failure = try forked(fork, logger: logger)
        await publishForkEvidence(server: server, logger: logger)
        return failure
    }

    /// What a member that holds a fork keeps on the server, at every start of its agent: its
    /// rosters beyond the server's newest (sent again as healing does, a restored backup
    /// having lost them), then its notice (``sendForkNotice(server:logger:)``). Once it stopped
    /// syncing, nothing else of its history reaches the server: a backup restored after it
    /// stopped would otherwise leave the members that had not read both histories with no
    /// proof at all, and no roster of the epoch to judge a notice by, silent for ever.
    func publishForkEvidence(server: SyncServer, logger: Logger) async {
        do throws(SyncFailure) {
            let newest: Int64
            do {
                newest = try await server.rosterDigests(configuration.group.bytes).map(\.epoch).max() ?? -1
            } catch {
                throw .server(error)
            }
            if newest < Int64(bitPattern: chain.current.epoch) {
                _ = try await resendRosters(after: newest, server: server, logger: logger)
            }
            try await sendForkNotice(server: server, logger: logger)
        } catch {
            logger.warning("could not tell the other members of the sync group of the fork yet; trying again at the next pass",
                           metadata: ["reason": "\(error)"])
        }
    }

    /// Appends this member's notice of the fork: one record written under its own roster, the
    /// deletion of an item nobody holds (a random account). A member of the other history
    /// reads it as a record a member it knows wrote under another roster of an epoch it holds,
    /// which is the proof it needs, even without the keys to open it; a member of this history
    /// deletes nothing. Without it, a member that saw the fork only in the server's rosters
    /// would stop in silence, and a member that had not read the removal yet would go on in
    /// the other history unwarned. Made once and kept, then sent again unchanged at every
    /// start (the server ignores a record it holds already), so that a server that lost it
    /// gets it back.
    private func sendForkNotice(server: SyncServer, logger: Logger) async throws(SyncFailure) {
        let notice: SealedRecord
        if let kept = try state.forkNotice() {
            notice = kept
        } else {
            guard let secrets = configuration.secrets, let roster = chain.roster(epoch: secrets.currentEpoch) else { return }
            let account = Hex.string(Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }))
            let item = SyncedItem(itemClass: .genericPassword, attributes: [
                "svce": .string("keychain-sync-fork-notice"), "acct": .string(account), "sync": .number(1),
            ], secret: nil)
            let version = RecordVersion(time: min(UInt64(Date().timeIntervalSince1970 * 1000), RecordVersion.maximumTime),
                                        device: me, counter: 0)
            do {
                notice = try SealedRecord.seal(content: item.serialized(includingSecret: false),
                                               itemID: secrets.itemID(for: item.identityBytes), version: version,
                                               isTombstone: true, group: configuration.group, secrets: secrets,
                                               rosterHead: roster.hash, author: configuration.device)
            } catch {
                throw .damaged("the notice of the fork could not be sealed: \(error)")
            }
            try state.keepForkNotice(notice)
        }
        do {
            _ = try await server.append(configuration.group.bytes, records: [
                (itemID: notice.itemID, version: notice.version.encoded, isTombstone: true, record: notice.encoded),
            ])
        } catch {
            throw .server(error)
        }
        if try state.integer(.forkNoticeSent) == 0 {
            try state.set(.forkNoticeSent, 1)
            logger.notice("told the other members of the sync group of the fork", metadata: ["epoch": "\(notice.epoch)"])
        }
    }
}
