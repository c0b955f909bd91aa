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
}
