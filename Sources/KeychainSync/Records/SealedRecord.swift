import Crypto
import Foundation
import KeychainCore

/// One version of one synchronized item as the server stores it: the content sealed with
/// AES-256-GCM under the group key of an epoch, and signed by its author, the device its
/// version names.
///
/// Encoded form (integers big-endian):
///
/// | field       | bytes                                                                  |
/// |-------------|------------------------------------------------------------------------|
/// | magic       | 4, `KSRC`                                                              |
/// | format      | 1, currently 2                                                         |
/// | group id    | 16                                                                     |
/// | item id     | 32, HMAC-SHA256 of the item's identity under the group's id key        |
/// | version     | 32, RecordVersion's encoded form                                       |
/// | epoch       | 8, the epoch whose group key sealed the content                        |
/// | flags       | 1, bit 0 set for a tombstone; the other bits zero                      |
/// | roster head | 32, the hash of the author's roster of that epoch (format 2 only)      |
/// | sealed box  | 4-byte length, then AES-GCM's nonce (12) ‖ ciphertext ‖ tag (16)       |
/// | signature   | 64, ECDSA P-256 SHA-256 (raw r‖s) by the author over every byte before it |
///
/// The header (magic through the roster head, 126 bytes; 94 in format 1) is the AEAD's
/// associated data, so content never opens under another group, item, version, epoch,
/// tombstone flag or roster. The roster head is the author's statement of which membership it
/// acts under: a roster's hash names the one before it, so it stands for the whole chain up to
/// that epoch. A reader whose roster of that epoch differs holds a fork (``fork(chain:)``); one
/// that has no roster of that epoch rejects the record.
///
/// Format 1, which agents wrote before records carried a roster head, is still read, with the
/// same checks but without a head to compare: such a record proves no fork either way.
package struct SealedRecord: Sendable {
    static let itemIDCount = 32
    /// The format records are written in; 1 (no roster head) is still read.
    static let format: UInt8 = 2
    private static let tombstoneFlag: UInt8 = 1

    package let group: GroupID
    package let itemID: Data
    package let version: RecordVersion
    package let epoch: UInt64
    package let isTombstone: Bool
    /// The hash of the roster of `epoch` its author acted under; nil in a format 1 record.
    package let rosterHead: Data?
    package let encoded: Data
    private let sealedBox: Data
    private let headerCount: Int
    private let signedCount: Int

    /// `content` sealed under the current epoch's key of `secrets`, signed by `author`, whose
    /// id must be the version's device, naming `rosterHead`: the hash of the author's roster of
    /// that epoch (``RosterChain/roster(epoch:)``).
    package static func seal(content: Data, itemID: Data, version: RecordVersion, isTombstone: Bool, group: GroupID,
                             secrets: GroupSecrets, rosterHead: Data,
                             author: DeviceIdentity) throws(MembershipError) -> SealedRecord {
        guard itemID.count == itemIDCount else { throw .badItemID }
        guard rosterHead.count == Roster.hashCount else { throw .badRosterHead }
        guard version.device == author.id else { throw .authorNotVersionDevice }
        let epoch = secrets.currentEpoch
        guard let key = secrets.key(epoch: epoch) else { throw .epochNotHeld(epoch) }
        let header = SyncField.message(.record, format: format, [
            .fixed(group.bytes), .fixed(itemID), .fixed(version.encoded), .uint64(epoch),
            .byte(isTombstone ? tombstoneFlag : 0), .fixed(rosterHead)])
        do {
            let combined = try RecordSealer.seal(content, with: key, binding: header)
            let body = header + SyncField.encode([.sized(combined)])
            // Made from its parts rather than parsed back: a push seals a thousand at a time.
            return SealedRecord(group: group, itemID: itemID, version: version, epoch: epoch, isTombstone: isTombstone,
                                rosterHead: rosterHead, encoded: body + (try author.signature(for: body)), sealedBox: combined,
                                headerCount: header.count, signedCount: body.count)
        } catch {
            throw .cryptoFailure
        }
    }

    private init(group: GroupID, itemID: Data, version: RecordVersion, epoch: UInt64, isTombstone: Bool, rosterHead: Data,
                 encoded: Data, sealedBox: Data, headerCount: Int, signedCount: Int) {
        self.group = group
        self.itemID = itemID
        self.version = version
        self.epoch = epoch
        self.isTombstone = isTombstone
        self.rosterHead = rosterHead
        self.encoded = encoded
        self.sealedBox = sealedBox
        self.headerCount = headerCount
        self.signedCount = signedCount
    }

    /// Parses what the server returned and checks its item id and version columns against the
    /// signed header, so that the server cannot file a record under another item or version.
    package init(encoded: Data, serverItemID: Data, serverVersion: Data) throws(SyncRejection) {
        let kind = SyncMessageKind.record
        var reader = SyncFieldReader(encoded, kind: kind)
        let format = try reader.header(formats: 1...Self.format)
        group = try GroupID(bytes: reader.fixed(GroupID.count), kind: kind)
        itemID = try reader.fixed(Self.itemIDCount)
        version = try RecordVersion(encoded: reader.fixed(RecordVersion.encodedCount))
        epoch = try reader.uint64()
        let flags = try reader.byte()
        guard flags & ~Self.tombstoneFlag == 0 else { throw .malformed(kind) }
        isTombstone = flags == Self.tombstoneFlag
        rosterHead = format >= 2 ? try reader.fixed(Roster.hashCount) : nil
        headerCount = reader.offset
        sealedBox = try reader.sized(maximum: Int(UInt32.max))
        guard sealedBox.count >= 12 + 16 else { throw .malformed(kind) }
        signedCount = reader.offset
        _ = try reader.fixed(SyncSignature.size)
        try reader.end()
        guard itemID == serverItemID else { throw .itemIDMismatch }
        guard version.encoded == serverVersion else { throw .versionMismatch }
        self.encoded = Data(encoded)
    }

    /// SHA-256 of the signed bytes (header and sealed box, not the signature): what a removal
    /// roster names to vouch for this record.
    package var digest: Data {
        Data(SHA256.hash(data: encoded.prefix(signedCount)))
    }

    /// The fork this record proves, nil when it proves none: its roster head is not the
    /// reader's roster of its epoch, and its author, a member of the reader's roster of that
    /// epoch or of the one before (where two histories part), signed it. Checked on every
    /// record a member reads, before anything else about it is believed: a member cannot open
    /// a record of the other history (another key), but it can see that one exists.
    ///
    /// `.unknownRosterHead` when the reader has no roster of the record's epoch (the caller
    /// fetched the rosters first): nothing to compare, so the record is rejected; it is no
    /// proof, as anyone can write a number. A head that differs, signed by no such member, is
    /// rejected the same way (`.unknownAuthor`, `.badSignature`). A format 1 record names no
    /// head: nil, and ``authenticate(chain:)`` checks it as before.
    package func fork(chain: RosterChain) throws(SyncRejection) -> SyncFork? {
        guard let rosterHead else { return nil }
        guard group == chain.groupID else { throw .wrongGroup(.record) }
        guard let ours = chain.roster(epoch: epoch) else { throw .unknownRosterHead(epoch: epoch) }
        guard ours.hash != rosterHead else { return nil }
        guard let author = chain.signer(ofRecordBy: version.device, epoch: epoch) else {
            throw .unknownAuthor(.record, epoch: epoch)
        }
        guard isSigned(by: author) else { throw .badSignature(.record) }
        return chain.fork(head: rosterHead, epoch: epoch, author: author)
    }

    /// Checks who wrote the record, before anything it claims is believed: same group, a
    /// roster known for its epoch, an author who is a member at that epoch (and, if removed
    /// since, a record the roster that removed it vouches for), and a valid signature. What a
    /// reader checks before it waits for the key of a later epoch: a record that only claims
    /// one (a forged epoch, which no roster has) is rejected rather than waited for.
    package func authenticate(chain: RosterChain) throws(SyncRejection) {
        guard group == chain.groupID else { throw .wrongGroup(.record) }
        guard let roster = chain.roster(epoch: epoch) else { throw .unknownEpoch(epoch) }
        // A record of another history never passes as one of this one (``fork(chain:)``
        // tells the two apart).
        if let rosterHead, rosterHead != roster.hash { throw .rosterHeadMismatch(epoch: epoch) }
        guard let author = roster.member(version.device) else { throw .unknownAuthor(.record, epoch: epoch) }
        // The digest a removal vouches for is hashed only for a removed author's record.
        if chain.current.removed[version.device] != nil,
           !chain.outlivesRemovals(VouchedRecord(itemID: itemID, version: version, digest: digest)) {
            throw .removedAuthorNotVouched
        }
        guard isSigned(by: author) else { throw .badSignature(.record) }
    }

    private func isSigned(by author: DevicePublicIdentity) -> Bool {
        SyncSignature.isValid(encoded.suffix(from: signedCount), for: encoded.prefix(signedCount), by: author.signingKey)
    }

    /// The content, after checking the record against the chain: same group, a roster known
    /// for its epoch, an author who is a member at that epoch (and, if removed since, a record
    /// the roster that removed it vouches for), a valid signature, a key for the epoch, and
    /// content that opens.
    package func open(secrets: GroupSecrets, chain: RosterChain) throws(SyncRejection) -> Data {
        try authenticate(chain: chain)
        guard let key = secrets.key(epoch: epoch) else { throw .missingEpochKey(epoch) }
        do {
            return try RecordSealer.open(sealedBox, with: key, binding: encoded.prefix(headerCount))
        } catch {
            throw .aeadFailure
        }
    }
}
