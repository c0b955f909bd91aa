import Foundation
import KeychainCore
import Logging

extension SyncSession {
    /// Keeps `fork` (see ``forked(_:logger:)``), tells the other history of it
    /// (``sendForkNotice(server:logger:)``), and returns the failure that stops the pass.
    func reportFork(_ fork: SyncFork, server: SyncServer, logger: Logger) async throws(SyncFailure) -> SyncFailure {
        let failure = try forked(fork, logger: logger)
        await sendForkNotice(server: server, logger: logger)
        return failure
    }

    /// Once this member has kept a fork, appends one record written under its own roster: the
    /// deletion of an item nobody holds (a random account). A member of the other history reads
    /// it as a record a member it knows wrote under another roster of an epoch it holds, which is
    /// the proof it needs, even without the keys to open it; a member of this history deletes
    /// nothing. Without it, a member that saw the fork only in the server's rosters would stop
    /// in silence, and a member that had not read the removal yet would go on in the other
    /// history unwarned. Sent once; when the server cannot take it, the next pass tries again.
    func sendForkNotice(server: SyncServer, logger: Logger) async {
        do throws(SyncFailure) {
            guard try state.integer(.forkNoticeSent) == 0, let secrets = configuration.secrets,
                  let roster = chain.roster(epoch: secrets.currentEpoch) else { return }
            let account = Hex.string(Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }))
            let notice = SyncedItem(itemClass: .genericPassword, attributes: [
                "svce": .string("keychain-sync-fork-notice"), "acct": .string(account), "sync": .number(1),
            ], secret: nil)
            let itemID = secrets.itemID(for: notice.identityBytes)
            let version = RecordVersion(time: min(UInt64(Date().timeIntervalSince1970 * 1000), RecordVersion.maximumTime),
                                        device: me, counter: 0)
            let record = try Self.seal(notice, itemID: itemID, version: version, tombstone: true, group: configuration.group,
                                       secrets: secrets, rosterHead: roster.hash, author: configuration.device)
            do {
                _ = try await server.append(configuration.group.bytes, records: [record])
            } catch {
                throw .server(error)
            }
            try state.set(.forkNoticeSent, 1)
            logger.notice("told the other members of the sync group of the fork", metadata: ["epoch": "\(secrets.currentEpoch)"])
        } catch {
            logger.warning("could not tell the other members of the sync group of the fork yet; trying again at the next pass",
                           metadata: ["reason": "\(error)"])
        }
    }
}
