import Crypto
import Foundation

/// The signed list of a sync group's members at one epoch. Epoch 0 (genesis) lists the founder
/// alone and is signed by it; epoch n+1 names the hash of epoch n and is signed by a member of
/// epoch n. Members pin the genesis hash at setup or join and check every roster against the
/// chain (RosterChain), so a server cannot add a member, swap a member's keys or undo a removal.
///
/// Encoded form (integers big-endian):
///
/// | field          | bytes                                                          |
/// |----------------|----------------------------------------------------------------|
/// | magic          | 4, `KSRS`                                                      |
/// | format         | 1, currently 1                                                 |
/// | group id       | 16                                                             |
/// | epoch          | 8                                                              |
/// | previous hash  | 32, the hash of the roster of epoch − 1; zeros at genesis      |
/// | member count   | 4, at least 1                                                  |
/// | members        | each a 4-byte length and a DevicePublicIdentity's encoded form, ids distinct |
/// | removed count  | 4                                                              |
/// | removed        | each a device id (16) and the epoch of the roster that removed it (8, 1 to this epoch), ids ascending, none a member |
/// | vouched count  | 4                                                              |
/// | vouched        | each a VouchedRecord (item id 32, version 32, digest 32), ascending and distinct; each version's device is one this roster removes (removal epoch = this epoch) |
/// | signer         | 16, a device id                                                |
/// | signature      | 64, ECDSA P-256 SHA-256 (raw r‖s) over every byte before it    |
///
/// `hash` is SHA-256 of every byte before the signature. `removed` keeps every removal since
/// genesis with the epoch that made it; `vouched` lists, in the roster that removes a device
/// only, exactly which of its records stay valid (the latest version of each item the remover
/// held, when that device wrote it, with the digest of the record as the server holds it).
/// Members accept a removed device's record only when that roster vouches for its item id,
/// version and digest (SealedRecord.open), so a removed device that still holds an old epoch's
/// key and its signing key cannot write anything that counts.
package struct Roster: Sendable {
    static let hashCount = 32

    package let groupID: GroupID
    package let epoch: UInt64
    package let previousHash: Data
    package let members: [DevicePublicIdentity]
    /// Every device removed since genesis, with the epoch of the roster that removed it.
    package let removed: [DeviceID: UInt64]
    /// The records of the devices this roster removes that stay valid; empty in every other roster.
    package let vouched: Set<VouchedRecord>
    package let signer: DeviceID
    package let encoded: Data
    /// SHA-256 of the signed bytes, which the next roster names and members pin at genesis.
    package let hash: Data
    private let signedCount: Int
    /// Where each member is in `members`: lookups stay linear in the roster's size, which the
    /// server controls.
    private let memberIndex: [DeviceID: Int]

    /// The first roster of a new group, with `founder` its only member.
    package static func genesis(group: GroupID, founder: DeviceIdentity) throws(MembershipError) -> Roster {
        try signed(group: group, epoch: 0, previousHash: Data(count: hashCount),
                   members: [founder.publicIdentity], removed: [:], vouched: [], signer: founder)
    }

    /// The next roster, with `member` added, signed by `signer` (a member of this one).
    package func adding(_ member: DevicePublicIdentity, signer: DeviceIdentity) throws(MembershipError) -> Roster {
        guard self.member(signer.id) != nil else { throw .signerNotMember }
        guard self.member(member.id) == nil else { throw .alreadyMember }
        guard removed[member.id] == nil else { throw .previouslyRemoved }
        return try Self.signed(group: groupID, epoch: epoch + 1, previousHash: hash,
                               members: members + [member], removed: removed, vouched: [], signer: signer)
    }

    /// The next roster, without `device`, of whose records only `vouching` stay valid (the
    /// latest version of each item the remover holds, where `device` wrote it), signed by
    /// `signer` (a member of this one, possibly `device` itself when it leaves).
    package func removing(_ device: DeviceID, vouching: some Sequence<VouchedRecord>,
                          signer: DeviceIdentity) throws(MembershipError) -> Roster {
        guard member(signer.id) != nil else { throw .signerNotMember }
        guard member(device) != nil else { throw .notMember }
        guard members.count > 1 else { throw .lastMember }
        let vouched = Set(vouching)
        guard vouched.allSatisfy({ $0.author == device }) else { throw .vouchedForAnotherDevice }
        var removed = removed
        removed[device] = epoch + 1
        return try Self.signed(group: groupID, epoch: epoch + 1, previousHash: hash,
                               members: members.filter { $0.id != device }, removed: removed, vouched: vouched,
                               signer: signer)
    }

    /// Whether this roster lists `record` among the records of the devices it removes that
    /// stay valid (see ``RosterChain/outlivesRemovals(_:)``).
    package func vouches(_ record: VouchedRecord) -> Bool {
        vouched.contains(record)
    }

    /// The member with that id, nil when it is none.
    package func member(_ id: DeviceID) -> DevicePublicIdentity? {
        memberIndex[id].map { members[$0] }
    }

    /// Verifies that `next` follows this roster: same group, epoch + 1, names this roster's
    /// hash, signed by a member of this roster, keeps every member's keys, and keeps every
    /// removal with its epoch; a device it newly removes was a member here and is removed at
    /// `next`'s epoch (a member that leaves the list must be in `removed`).
    package func verifyNext(_ next: Roster) throws(SyncRejection) {
        guard next.groupID == groupID else { throw .wrongGroup(.roster) }
        guard next.epoch == epoch + 1 else { throw .rosterEpochNotNext(expected: epoch + 1, found: next.epoch) }
        guard next.previousHash == hash else { throw .rosterPreviousHashMismatch(epoch: next.epoch) }
        guard let signer = member(next.signer) else { throw .unknownAuthor(.roster, epoch: epoch) }
        guard next.isSigned(by: signer) else { throw .badSignature(.roster) }
        for (device, removalEpoch) in removed where next.removed[device] != removalEpoch {
            throw .rosterInconsistent(epoch: next.epoch)
        }
        for (device, removalEpoch) in next.removed where removed[device] == nil {
            guard member(device) != nil, removalEpoch == next.epoch else { throw .rosterInconsistent(epoch: next.epoch) }
        }
        for member in members {
            if let kept = next.member(member.id) {
                guard kept == member else { throw .rosterInconsistent(epoch: next.epoch) }
            } else {
                guard next.removed[member.id] != nil else { throw .rosterInconsistent(epoch: next.epoch) }
            }
        }
    }

    /// Verifies that this is a well-formed genesis: epoch 0, no previous hash, no removals,
    /// one member who signed it.
    func verifyGenesis() throws(SyncRejection) {
        guard epoch == 0, previousHash == Data(count: Self.hashCount), removed.isEmpty, vouched.isEmpty,
              members.count == 1, members[0].id == signer
        else { throw .genesisMismatch }
        guard isSigned(by: members[0]) else { throw .badSignature(.roster) }
    }

    /// Whether `device`'s key made this roster's signature (whoever the signer field names).
    func isSigned(by device: DevicePublicIdentity) -> Bool {
        SyncSignature.isValid(encoded.suffix(from: encoded.startIndex + signedCount),
                              for: encoded.prefix(signedCount), by: device.signingKey)
    }

    private static func signed(group: GroupID, epoch: UInt64, previousHash: Data, members: [DevicePublicIdentity],
                               removed: [DeviceID: UInt64], vouched: Set<VouchedRecord>,
                               signer: DeviceIdentity) throws(MembershipError) -> Roster {
        let body = SyncField.message(.roster, [.fixed(group.bytes), .uint64(epoch), .fixed(previousHash),
                                               .uint32(UInt32(members.count))]
            + members.map { .sized($0.encoded) }
            + [.uint32(UInt32(removed.count))]
            + removed.sorted { $0.key < $1.key }.flatMap { [SyncField.fixed($0.key.bytes), .uint64($0.value)] }
            + [.uint32(UInt32(vouched.count))]
            + vouched.sorted().map { .fixed($0.encoded) }
            + [.fixed(signer.id.bytes)])
        let signature: Data
        do { signature = try signer.signature(for: body) } catch { throw .cryptoFailure }
        do { return try Roster(encoded: body + signature) } catch { throw .cryptoFailure }
    }

    package init(encoded: Data) throws(SyncRejection) {
        let kind = SyncMessageKind.roster
        var reader = SyncFieldReader(encoded, kind: kind)
        try reader.header()
        groupID = try GroupID(bytes: reader.fixed(GroupID.count), kind: kind)
        epoch = try reader.uint64()
        previousHash = try reader.fixed(Self.hashCount)
        let memberCount = try reader.count(entrySize: 4)
        guard memberCount >= 1 else { throw .malformed(kind) }
        var members: [DevicePublicIdentity] = []
        var memberIndex: [DeviceID: Int] = [:]
        for _ in 0..<memberCount {
            let member: DevicePublicIdentity
            do { member = try DevicePublicIdentity(encoded: reader.sized(maximum: 1024)) } catch { throw .malformed(kind) }
            guard memberIndex.updateValue(members.count, forKey: member.id) == nil else { throw .malformed(kind) }
            members.append(member)
        }
        let removedCount = try reader.count(entrySize: DeviceID.count + 8)
        var removed: [DeviceID: UInt64] = [:]
        var previous: DeviceID?
        for _ in 0..<removedCount {
            let device = try DeviceID(bytes: reader.fixed(DeviceID.count), kind: kind)
            guard previous.map({ $0 < device }) ?? true, memberIndex[device] == nil
            else { throw .malformed(kind) }
            let removalEpoch = try reader.uint64()
            guard removalEpoch >= 1, removalEpoch <= epoch else { throw .malformed(kind) }
            removed[device] = removalEpoch
            previous = device
        }
        let vouchedCount = try reader.count(entrySize: VouchedRecord.encodedCount)
        var vouched = Set<VouchedRecord>(minimumCapacity: vouchedCount)
        var previousVouched: VouchedRecord?
        for _ in 0..<vouchedCount {
            let itemID = try reader.fixed(SealedRecord.itemIDCount)
            let version: RecordVersion
            do { version = try RecordVersion(encoded: reader.fixed(RecordVersion.encodedCount)) } catch { throw .malformed(kind) }
            let record = VouchedRecord(itemID: itemID, version: version, digest: try reader.fixed(VouchedRecord.digestCount))
            // Only records of a device this roster removes; ascending, so each is listed once.
            guard previousVouched.map({ $0 < record }) ?? true, removed[record.author] == epoch
            else { throw .malformed(kind) }
            vouched.insert(record)
            previousVouched = record
        }
        signer = try DeviceID(bytes: reader.fixed(DeviceID.count), kind: kind)
        signedCount = reader.offset
        _ = try reader.fixed(SyncSignature.size)
        try reader.end()
        self.members = members
        self.memberIndex = memberIndex
        self.removed = removed
        self.vouched = vouched
        self.encoded = Data(encoded)
        hash = Data(SHA256.hash(data: self.encoded.prefix(signedCount)))
    }
}
