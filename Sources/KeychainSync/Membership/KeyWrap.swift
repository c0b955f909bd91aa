import Crypto
import Foundation

/// A group's secrets up to one epoch, sealed to one member with HPKE (RFC 9180, base mode,
/// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM) and signed by the member who made it.
///
/// Encoded form (integers big-endian):
///
/// | field            | bytes                                                       |
/// |------------------|-------------------------------------------------------------|
/// | magic            | 4, `KSKW`                                                   |
/// | format           | 1, currently 1                                              |
/// | group id         | 16                                                          |
/// | epoch            | 8                                                           |
/// | recipient        | 16, device id                                               |
/// | wrapper          | 16, device id                                               |
/// | encapsulated key | 4-byte length, then HPKE's encapsulated key (65 bytes)      |
/// | ciphertext       | 4-byte length, then HPKE's ciphertext of GroupSecrets' serialized form cut at the epoch |
/// | signature        | 64, ECDSA P-256 SHA-256 (raw r‖s) by the wrapper over every byte before it |
///
/// HPKE's `info` is the ASCII text `swift-keychain sync key wrap`, then the group id, the epoch
/// (8 bytes) and the recipient's id; its associated data is every byte from the magic through
/// the wrapper. A wrap therefore opens only for its recipient, as the group and epoch it names.
package struct KeyWrap: Sendable {
    static let suite = HPKE.Ciphersuite.P256_SHA256_AES_GCM_256
    private static let infoLabel = Data("swift-keychain sync key wrap".utf8)

    package let group: GroupID
    package let epoch: UInt64
    package let recipient: DeviceID
    package let wrapper: DeviceID
    package let encoded: Data
    private let headerCount: Int
    private let encapsulatedKey: Data
    private let ciphertext: Data
    private let signedCount: Int

    /// `secrets` cut at `epoch`, sealed to `to` and signed by `by`.
    package static func wrap(_ secrets: GroupSecrets, epoch: UInt64, group: GroupID, to recipient: DevicePublicIdentity,
                             by wrapper: DeviceIdentity) throws(MembershipError) -> KeyWrap {
        guard let cut = secrets.through(epoch: epoch) else { throw .epochNotHeld(epoch) }
        let header = header(group: group, epoch: epoch, recipient: recipient.id, wrapper: wrapper.id)
        do {
            var sender = try HPKE.Sender(recipientKey: recipient.agreementKey, ciphersuite: suite,
                                         info: info(group: group, epoch: epoch, recipient: recipient.id))
            let ciphertext = try sender.seal(cut.serialized, authenticating: header)
            let body = header + SyncField.encode([.sized(sender.encapsulatedKey), .sized(ciphertext)])
            return try KeyWrap(encoded: body + wrapper.signature(for: body))
        } catch {
            throw .cryptoFailure
        }
    }

    /// The secrets this wrap holds, after checking that it is for this group and device, that
    /// its wrapper was a member at its epoch (or signed the roster that made the epoch) and
    /// signed it, and that no epoch made by a removal reuses the key of the epoch before it.
    package func open(as device: DeviceIdentity, group: GroupID, chain: RosterChain) throws(SyncRejection) -> GroupSecrets {
        guard self.group == group, chain.groupID == group else { throw .wrongGroup(.keyWrap) }
        guard recipient == device.id else { throw .notRecipient }
        guard let roster = chain.roster(epoch: epoch) else { throw .unknownEpoch(epoch) }
        // The signer of a removal roster may have removed itself (leaving) and still wraps the
        // new epoch's key for the others; it was verified a member of the epoch before.
        let signer = roster.member(wrapper)
            ?? (roster.signer == wrapper && epoch > 0 ? chain.roster(epoch: epoch - 1)?.member(wrapper) : nil)
        guard let signer else { throw .unknownAuthor(.keyWrap, epoch: epoch) }
        guard SyncSignature.isValid(encoded.suffix(from: signedCount), for: encoded.prefix(signedCount),
                                    by: signer.signingKey)
        else { throw .badSignature(.keyWrap) }
        let plaintext: Data
        do {
            var recipient = try HPKE.Recipient(privateKey: device.agreementKey, ciphersuite: Self.suite,
                                               info: Self.info(group: group, epoch: epoch, recipient: device.id),
                                               encapsulatedKey: encapsulatedKey)
            plaintext = try recipient.open(ciphertext, authenticating: encoded.prefix(headerCount))
        } catch {
            throw .wrapDoesNotOpen
        }
        let secrets: GroupSecrets
        do { secrets = try GroupSecrets(serialized: plaintext) } catch { throw .malformed(.keyWrap) }
        guard secrets.currentEpoch == epoch else { throw .malformed(.keyWrap) }
        for later in stride(from: epoch, to: 0, by: -1) {
            guard let before = chain.roster(epoch: later - 1), let after = chain.roster(epoch: later) else { break }
            if after.removed.count > before.removed.count, secrets.key(epoch: later) == secrets.key(epoch: later - 1) {
                throw .keyKeptAfterRemoval(epoch: later)
            }
        }
        return secrets
    }

    package init(encoded: Data) throws(SyncRejection) {
        let kind = SyncMessageKind.keyWrap
        var reader = SyncFieldReader(encoded, kind: kind)
        try reader.header()
        group = try GroupID(bytes: reader.fixed(GroupID.count), kind: kind)
        epoch = try reader.uint64()
        recipient = try DeviceID(bytes: reader.fixed(DeviceID.count), kind: kind)
        wrapper = try DeviceID(bytes: reader.fixed(DeviceID.count), kind: kind)
        headerCount = reader.offset
        encapsulatedKey = try reader.sized(maximum: 256)
        ciphertext = try reader.sized(maximum: 64 << 20)
        signedCount = reader.offset
        _ = try reader.fixed(SyncSignature.size)
        try reader.end()
        self.encoded = Data(encoded)
    }

    private static func header(group: GroupID, epoch: UInt64, recipient: DeviceID, wrapper: DeviceID) -> Data {
        SyncField.message(.keyWrap, [.fixed(group.bytes), .uint64(epoch), .fixed(recipient.bytes), .fixed(wrapper.bytes)])
    }

    private static func info(group: GroupID, epoch: UInt64, recipient: DeviceID) -> Data {
        infoLabel + SyncField.encode([.fixed(group.bytes), .uint64(epoch), .fixed(recipient.bytes)])
    }
}
