import Foundation

/// The rosters of a sync group from genesis to the current epoch, each verified to follow the
/// one before it, starting from the genesis whose hash this member pinned at setup or join.
package struct RosterChain: Sendable {
    private var rosters: [Roster]

    /// The chain of `genesis` alone, which must hash to `pinnedHash` and be a well-formed
    /// genesis signed by its founder.
    package init(genesis: Roster, pinnedHash: Data) throws(SyncRejection) {
        guard genesis.hash == pinnedHash else { throw .genesisMismatch }
        try genesis.verifyGenesis()
        rosters = [genesis]
    }

    /// Appends the next roster after checking it follows the current one (Roster.verifyNext).
    package mutating func append(_ roster: Roster) throws(SyncRejection) {
        try current.verifyNext(roster)
        rosters.append(roster)
    }

    package var current: Roster { rosters[rosters.count - 1] }
    package var genesis: Roster { rosters[0] }
    package var groupID: GroupID { rosters[0].groupID }

    /// Whether `record` still counts as far as removals go: always when its author was never
    /// removed; when it was, only if the roster that removed it vouches for the record's item
    /// id and version. Every member that knows the removal decides the same, whatever order it
    /// read things in, and nothing the removed device signs afterwards is vouched for.
    package func outlivesRemovals(_ record: VouchedRecord) -> Bool {
        guard let removalEpoch = current.removed[record.author] else { return true }
        return roster(epoch: removalEpoch)?.vouches(record) ?? false
    }

    /// The roster of `epoch`, nil when the chain does not reach it yet.
    package func roster(epoch: UInt64) -> Roster? {
        epoch < UInt64(rosters.count) ? rosters[Int(epoch)] : nil
    }

    /// The fork `other` proves, nil when it proves none: a roster of this group, signed by a
    /// member of this chain's roster of the epoch before it, that differs from this chain's
    /// roster of its epoch, or, for the epoch after the current one, does not name the current
    /// roster's hash (it follows a roster of the current epoch this member does not hold). A
    /// roster nobody it knows signed proves nothing: it is merely rejected.
    package func fork(shownBy other: Roster) -> SyncFork? {
        guard other.groupID == groupID, other.epoch >= 1, let before = roster(epoch: other.epoch - 1),
              let signer = before.member(other.signer), other.isSigned(by: signer)
        else { return nil }
        if let ours = roster(epoch: other.epoch) {
            guard ours.hash != other.hash else { return nil }
            return fork(at: other.epoch, evidence: .roster, by: signer)
        }
        guard other.previousHash != before.hash else { return nil }
        return fork(at: before.epoch, evidence: .nextRoster, by: signer)
    }

    /// The fork `author`'s signed claim to act under the roster `head` at `epoch` proves, nil
    /// when `head` is this chain's roster of `epoch`. The author must be a member of this
    /// chain's roster of that epoch or of the one before (where the histories part); the
    /// caller has checked its signature with that member's key (``signer(ofRecordBy:epoch:)``).
    func fork(head: Data, epoch: UInt64, author: DevicePublicIdentity) -> SyncFork? {
        guard let ours = roster(epoch: epoch), ours.hash != head else { return nil }
        return fork(at: epoch, evidence: .record, by: author)
    }

    /// The key of `author` for a record of `epoch` whose roster head may differ from this
    /// chain's: the author as a member of this chain's roster of that epoch, else of the one
    /// before. Nil when it is a member of neither.
    func signer(ofRecordBy author: DeviceID, epoch: UInt64) -> DevicePublicIdentity? {
        if let member = roster(epoch: epoch)?.member(author) { return member }
        guard epoch >= 1 else { return nil }
        return roster(epoch: epoch - 1)?.member(author)
    }

    private func fork(at epoch: UInt64, evidence: SyncFork.Evidence, by other: DevicePublicIdentity) -> SyncFork {
        let ours = rosters[Int(epoch)]
        let ownSignerName = roster(epoch: epoch == 0 ? 0 : epoch - 1)?.member(ours.signer)?.name
            ?? ours.member(ours.signer)?.name ?? "?"
        return SyncFork(epoch: epoch, evidence: evidence, otherDevice: other.id, otherName: other.name,
                        ownSigner: ours.signer, ownSignerName: ownSignerName)
    }
}
