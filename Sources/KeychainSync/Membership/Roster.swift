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
/// | removed        | each a device id (16) and its cutoff counter (8), ids ascending, none a member |
/// | signer         | 16, a device id                                                |
/// | signature      | 64, ECDSA P-256 SHA-256 (raw r‖s) over every byte before it    |
///
/// `hash` is SHA-256 of every byte before the signature. `removed` keeps every removal since
/// genesis: a removed device's records count only up to its cutoff counter.
package struct Roster: Sendable {
    static let hashCount = 32

    package let groupID: GroupID
    package let epoch: UInt64
    package let previousHash: Data
    package let members: [DevicePublicIdentity]
    package let removed: [DeviceID: UInt64]
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
                   members: [founder.publicIdentity], removed: [:], signer: founder)
    }

    /// The next roster, with `member` added, signed by `signer` (a member of this one).
    package func adding(_ member: DevicePublicIdentity, signer: DeviceIdentity) throws(MembershipError) -> Roster {
        guard self.member(signer.id) != nil else { throw .signerNotMember }
        guard self.member(member.id) == nil else { throw .alreadyMember }
        guard removed[member.id] == nil else { throw .previouslyRemoved }
        return try Self.signed(group: groupID, epoch: epoch + 1, previousHash: hash,
                               members: members + [member], removed: removed, signer: signer)
    }

    /// The next roster, without `device`, whose records count only up to counter `cutoff`
    /// (the highest of its counters the remover has seen), signed by `signer` (a member of
    /// this one, possibly `device` itself when it leaves).
    package func removing(_ device: DeviceID, cutoff: UInt64, signer: DeviceIdentity) throws(MembershipError) -> Roster {
        guard member(signer.id) != nil else { throw .signerNotMember }
        guard member(device) != nil else { throw .notMember }
        guard members.count > 1 else { throw .lastMember }
        var removed = removed
        removed[device] = cutoff
        return try Self.signed(group: groupID, epoch: epoch + 1, previousHash: hash,
                               members: members.filter { $0.id != device }, removed: removed, signer: signer)
    }

    /// The member with that id, nil when it is none.
    package func member(_ id: DeviceID) -> DevicePublicIdentity? {
        memberIndex[id].map { members[$0] }
    }

    /// Verifies that `next` follows this roster: same group, epoch + 1, names this roster's
    /// hash, signed by a member of this roster, keeps every member's keys, and keeps every
    /// removal with its cutoff (a member that leaves the list must be in `removed`).
    package func verifyNext(_ next: Roster) throws(SyncRejection) {
        guard next.groupID == groupID else { throw .wrongGroup(.roster) }
        guard next.epoch == epoch + 1 else { throw .rosterEpochNotNext(expected: epoch + 1, found: next.epoch) }
        guard next.previousHash == hash else { throw .rosterPreviousHashMismatch(epoch: next.epoch) }
        guard let signer = member(next.signer) else { throw .unknownAuthor(.roster, epoch: epoch) }
        guard next.isSigned(by: signer) else { throw .badSignature(.roster) }
        for (device, cutoff) in removed where next.removed[device] != cutoff {
            throw .rosterInconsistent(epoch: next.epoch)
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
        guard epoch == 0, previousHash == Data(count: Self.hashCount), removed.isEmpty,
              members.count == 1, members[0].id == signer
        else { throw .genesisMismatch }
        guard isSigned(by: members[0]) else { throw .badSignature(.roster) }
    }

    private func isSigned(by device: DevicePublicIdentity) -> Bool {
        SyncSignature.isValid(encoded.suffix(from: encoded.startIndex + signedCount),
                              for: encoded.prefix(signedCount), by: device.signingKey)
    }

    private static func signed(group: GroupID, epoch: UInt64, previousHash: Data, members: [DevicePublicIdentity],
                               removed: [DeviceID: UInt64], signer: DeviceIdentity) throws(MembershipError) -> Roster {
        let body = SyncField.message(.roster, [.fixed(group.bytes), .uint64(epoch), .fixed(previousHash),
                                               .uint32(UInt32(members.count))]
            + members.map { .sized($0.encoded) }
            + [.uint32(UInt32(removed.count))]
            + removed.sorted { $0.key < $1.key }.flatMap { [SyncField.fixed($0.key.bytes), .uint64($0.value)] }
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
            removed[device] = try reader.uint64()
            previous = device
        }
        signer = try DeviceID(bytes: reader.fixed(DeviceID.count), kind: kind)
        signedCount = reader.offset
        _ = try reader.fixed(SyncSignature.size)
        try reader.end()
        self.members = members
        self.memberIndex = memberIndex
        self.removed = removed
        self.encoded = Data(encoded)
        hash = Data(SHA256.hash(data: self.encoded.prefix(signedCount)))
    }
}
