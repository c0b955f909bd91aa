import Foundation

/// Proof that a sync group's membership has two histories: for one epoch, a device this member
/// knows signed a roster other than the one this member holds (or wrote), or wrote a record
/// under such a roster. Every check behind it is a signature by a device that was a member at
/// the epoch before, so a server or an outsider without a member's key cannot make one up.
///
/// Once a member holds one, it stops syncing the group (nothing sent, nothing applied) and
/// `keychainctl sync status` shows it: the histories cannot be merged, and which one is right
/// is for the user to decide. Nothing here is secret: epochs, device ids and names are what the
/// server stores in the clear.
package struct SyncFork: Sendable, Equatable {
    /// What showed the other history.
    package enum Evidence: String, Sendable {
        /// A roster, signed by a member of the epoch before, that is not this member's roster
        /// of that epoch.
        case roster
        /// A roster of the next epoch, signed by a member, that follows another roster of
        /// this member's current epoch.
        case nextRoster = "next roster"
        /// A record whose signed roster head is not this member's roster of its epoch.
        case record
    }

    /// The epoch whose roster the two histories disagree on.
    package let epoch: UInt64
    package let evidence: Evidence
    /// The device whose signature shows the other history, and its name as this member's
    /// rosters list it.
    package let otherDevice: DeviceID
    package let otherName: String
    /// Who signed this member's roster of that epoch, and its name.
    package let ownSigner: DeviceID
    package let ownSignerName: String

    package init(epoch: UInt64, evidence: Evidence, otherDevice: DeviceID, otherName: String,
                 ownSigner: DeviceID, ownSignerName: String) {
        self.epoch = epoch
        self.evidence = evidence
        self.otherDevice = otherDevice
        self.otherName = otherName
        self.ownSigner = ownSigner
        self.ownSignerName = ownSignerName
    }

    /// One sentence for `sync status` and the logs: which epoch, which devices' rosters
    /// disagree, and what to do.
    package var summary: String {
        let other = "\(otherName) (\(otherDevice.shortHex))"
        let shown = switch evidence {
        case .roster: "\(other) signed another roster for that epoch"
        case .nextRoster: "\(other) signed a roster of the next epoch that follows another roster of that epoch"
        case .record: "\(other) writes records under another roster for that epoch"
        }
        return "the sync group has forked at key epoch \(epoch): this device holds the roster signed by "
            + "\(ownSignerName) (\(ownSigner.shortHex)), but \(shown). Syncing stopped here: nothing is sent "
            + "or applied. Set the group up again: keychainctl sync leave --local on every machine, then "
            + "keychainctl sync setup on one and keychainctl sync join on the others"
    }
}
