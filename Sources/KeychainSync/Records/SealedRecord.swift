import Crypto
import Foundation

/// One version of one synchronized item as the server stores it: the content sealed with
/// AES-256-GCM under the group key of an epoch, and signed by its author, the device its
/// version names.
///
/// Encoded form (integers big-endian):
///
/// | field       | bytes                                                                  |
/// |-------------|------------------------------------------------------------------------|
/// | magic       | 4, `KSRC`                                                              |
/// | format      | 1, currently 1                                                         |
/// | group id    | 16                                                                     |
/// | item id     | 32, HMAC-SHA256 of the item's identity under the group's id key        |
/// | version     | 32, RecordVersion's encoded form                                       |
/// | epoch       | 8, the epoch whose group key sealed the content                        |
/// | flags       | 1, bit 0 set for a tombstone; the other bits zero                      |
/// | sealed box  | 4-byte length, then AES-GCM's nonce (12) ‖ ciphertext ‖ tag (16)       |
/// | signature   | 64, ECDSA P-256 SHA-256 (raw r‖s) by the author over every byte before it |
///
/// The header (magic through flags, 94 bytes) is the AEAD's associated data, so content never
/// opens under another group, item, version, epoch or tombstone flag.
package struct SealedRecord: Sendable {
    static let itemIDCount = 32
    static let headerCount = 4 + 1 + GroupID.count + itemIDCount + RecordVersion.encodedCount + 8 + 1
    private static let tombstoneFlag: UInt8 = 1

    package let group: GroupID
    package let itemID: Data
    package let version: RecordVersion
    package let epoch: UInt64
    package let isTombstone: Bool
    package let encoded: Data
    private let sealedBox: Data
    private let signedCount: Int

    /// `content` sealed under the current epoch's key of `secrets`, signed by `author`, whose
    /// id must be the version's device.
    package static func seal(content: Data, itemID: Data, version: RecordVersion, isTombstone: Bool, group: GroupID,
                             secrets: GroupSecrets, author: DeviceIdentity) throws(MembershipError) -> SealedRecord {
        guard itemID.count == itemIDCount else { throw .badItemID }
        guard version.device == author.id else { throw .authorNotVersionDevice }
        let epoch = secrets.currentEpoch
        guard let key = secrets.key(epoch: epoch) else { throw .epochNotHeld(epoch) }
        let header = SyncField.message(.record, [.fixed(group.bytes), .fixed(itemID), .fixed(version.encoded),
                                                 .uint64(epoch), .byte(isTombstone ? tombstoneFlag : 0)])
        do {
            let box = try AES.GCM.seal(content, using: key, authenticating: header)
            guard let combined = box.combined else { throw MembershipError.cryptoFailure }
            let body = header + SyncField.encode([.sized(combined)])
            return try SealedRecord(encoded: body + author.signature(for: body), serverItemID: itemID,
                                    serverVersion: version.encoded)
        } catch {
            throw .cryptoFailure
        }
    }

    /// Parses what the server returned and checks its item id and version columns against the
    /// signed header, so that the server cannot file a record under another item or version.
    package init(encoded: Data, serverItemID: Data, serverVersion: Data) throws(SyncRejection) {
        let kind = SyncMessageKind.record
        var reader = SyncFieldReader(encoded, kind: kind)
        try reader.header()
        group = try GroupID(bytes: reader.fixed(GroupID.count), kind: kind)
        itemID = try reader.fixed(Self.itemIDCount)
        version = try RecordVersion(encoded: reader.fixed(RecordVersion.encodedCount))
        epoch = try reader.uint64()
        let flags = try reader.byte()
        guard flags & ~Self.tombstoneFlag == 0 else { throw .malformed(kind) }
        isTombstone = flags == Self.tombstoneFlag
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

    /// Checks who wrote the record, before anything it claims is believed: same group, a
    /// roster known for its epoch, an author who is a member at that epoch (and, if removed
    /// since, a record the roster that removed it vouches for), and a valid signature. What a
    /// reader checks before it waits for the key of a later epoch: a record that only claims
    /// one (a forged epoch, which no roster has) is rejected rather than waited for.
    package func authenticate(chain: RosterChain) throws(SyncRejection) {
        guard group == chain.groupID else { throw .wrongGroup(.record) }
        guard let roster = chain.roster(epoch: epoch) else { throw .unknownEpoch(epoch) }
        guard let author = roster.member(version.device) else { throw .unknownAuthor(.record, epoch: epoch) }
        guard chain.outlivesRemovals(VouchedRecord(itemID: itemID, version: version, digest: digest)) else {
            throw .removedAuthorNotVouched
        }
        guard SyncSignature.isValid(encoded.suffix(from: signedCount), for: encoded.prefix(signedCount),
                                    by: author.signingKey)
        else { throw .badSignature(.record) }
    }

    /// The content, after checking the record against the chain: same group, a roster known
    /// for its epoch, an author who is a member at that epoch (and, if removed since, a record
    /// the roster that removed it vouches for), a valid signature, a key for the epoch, and
    /// content that opens.
    package func open(secrets: GroupSecrets, chain: RosterChain) throws(SyncRejection) -> Data {
        try authenticate(chain: chain)
        guard let key = secrets.key(epoch: epoch) else { throw .missingEpochKey(epoch) }
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealedBox), using: key,
                                    authenticating: encoded.prefix(Self.headerCount))
        } catch {
            throw .aeadFailure
        }
    }
}
