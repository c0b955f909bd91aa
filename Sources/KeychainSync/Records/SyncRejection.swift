/// Why a member refuses something that came from the server or from another device: a record,
/// a roster, a key wrap, a join request, or one of the stored forms. Anything rejected is
/// logged and never applied.
///
/// Descriptions name the reason (and epochs, which are public), never content, keys or ids
/// of items.
package enum SyncRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// Truncated, too long, a bad length or key, or a field out of range.
    case malformed(SyncMessageKind)
    /// A format byte this version does not know (a newer member wrote it).
    case unknownFormat(SyncMessageKind, UInt8)
    /// Made for another sync group.
    case wrongGroup(SyncMessageKind)
    /// The server's item id column differs from the record's signed header.
    case itemIDMismatch
    /// The server's version column differs from the record's signed header.
    case versionMismatch
    /// The author or signer is not a member of the roster of that epoch.
    case unknownAuthor(SyncMessageKind, epoch: UInt64)
    /// A removed member's record that the roster which removed it does not vouch for.
    case removedAuthorNotVouched
    /// The signature does not verify with the signer's key.
    case badSignature(SyncMessageKind)
    /// No roster of that epoch is known yet.
    case unknownEpoch(UInt64)
    /// A record naming a roster head at an epoch this member has no roster of, after reading
    /// the server's rosters.
    case unknownRosterHead(epoch: UInt64)
    /// A record whose roster head is not the reader's roster of its epoch (a fork, when its
    /// author signed it: see SealedRecord.fork).
    case rosterHeadMismatch(epoch: UInt64)
    /// The reader holds no group key of that epoch (not wrapped to it, or it was removed).
    case missingEpochKey(UInt64)
    /// The record's content does not open under the epoch's key.
    case aeadFailure
    /// A roster whose epoch is not the next one.
    case rosterEpochNotNext(expected: UInt64, found: UInt64)
    /// A roster that does not name the hash of the roster before it.
    case rosterPreviousHashMismatch(epoch: UInt64)
    /// A roster that changes a member's keys, forgets a removal or changes its epoch, or drops
    /// a member without recording its removal at its own epoch.
    case rosterInconsistent(epoch: UInt64)
    /// A genesis roster that is not the one pinned at setup or join, or not a well-formed genesis.
    case genesisMismatch
    /// A key wrap whose epoch, made by a removal, keeps the key of the epoch before it (which the
    /// removed member holds).
    case keyKeptAfterRemoval(epoch: UInt64)
    /// A key wrap addressed to another device.
    case notRecipient
    /// A key wrap whose sealed keys do not open with this device's agreement key.
    case wrapDoesNotOpen

    package var description: String {
        switch self {
        case .malformed(let kind): "malformed \(kind.rawValue)"
        case .unknownFormat(let kind, let format): "\(kind.rawValue) in unknown format \(format)"
        case .wrongGroup(let kind): "\(kind.rawValue) of another sync group"
        case .itemIDMismatch: "record's item id differs from the server's item id"
        case .versionMismatch: "record's version differs from the server's version"
        case .unknownAuthor(let kind, let epoch): "\(kind.rawValue) signed by a device that is not a member at epoch \(epoch)"
        case .removedAuthorNotVouched: "record by a removed member that its removal does not vouch for"
        case .badSignature(let kind): "\(kind.rawValue) with a bad signature"
        case .unknownEpoch(let epoch): "no roster known for epoch \(epoch)"
        case .unknownRosterHead(let epoch): "record names a roster head this member does not know, at epoch \(epoch)"
        case .rosterHeadMismatch(let epoch): "record names another roster than this member's at epoch \(epoch)"
        case .missingEpochKey(let epoch): "no group key held for epoch \(epoch)"
        case .aeadFailure: "record content fails authentication"
        case .rosterEpochNotNext(let expected, let found): "roster of epoch \(found) does not follow the chain (expected epoch \(expected))"
        case .rosterPreviousHashMismatch(let epoch): "roster of epoch \(epoch) does not name the hash of the roster before it"
        case .rosterInconsistent(let epoch): "roster of epoch \(epoch) changes a member's keys or a removal of the roster before it"
        case .genesisMismatch: "genesis roster differs from the pinned one"
        case .keyKeptAfterRemoval(let epoch): "key wrap keeps the removed member's key at epoch \(epoch)"
        case .notRecipient: "key wrap addressed to another device"
        case .wrapDoesNotOpen: "key wrap does not open with this device's key"
        }
    }
}
