import Foundation
import KeychainSync
import Testing

/// Key wraps carry the group secrets to one member only, for the group and epoch they name,
/// from a member (contract: Key wraps).
@Suite("Key wraps")
struct KeyWrapTests {
    /// `wrap` with its epoch field set to `epoch` and signed again by `signer`, per the
    /// documented layout: what a member could publish, though HPKE's info names the old epoch.
    private func relabelled(_ wrap: KeyWrap, epoch: UInt64, signer: DeviceIdentity, wrapper: DeviceID? = nil) throws -> KeyWrap {
        var body = Data(wrap.encoded.dropLast(64))
        body.replaceSubrange(21..<29, with: withUnsafeBytes(of: epoch.bigEndian) { Data($0) })
        if let wrapper { body.replaceSubrange(45..<61, with: wrapper.bytes) }
        return try KeyWrap(encoded: body + signer.signature(for: body))
    }

    @Test("A wrap opens for its recipient into the same secrets: item ids and every epoch key up to its epoch")
    func opensForRecipient() throws {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        let earlier = try fixture.record(Data("before the phone joined".utf8), by: fixture.founder)
        try fixture.add(phone)
        let wrap = try KeyWrap(encoded: KeyWrap.wrap(fixture.secrets, epoch: 1, group: fixture.group,
                                                     to: phone.publicIdentity, by: fixture.founder).encoded)
        let secrets = try wrap.open(as: phone, group: fixture.group, chain: fixture.chain)
        #expect(secrets.currentEpoch == 1)
        #expect(secrets.itemID(for: Data("x".utf8)) == fixture.secrets.itemID(for: Data("x".utf8)))
        #expect(try earlier.fromServer().open(secrets: secrets, chain: fixture.chain) == Data("before the phone joined".utf8))
        #expect(wrap.encoded.range(of: fixture.secrets.serialized) == nil)
    }

    @Test("A wrap does not open for another device, another group, or relabelled to another epoch (HPKE info binding)")
    func bindsRecipientGroupEpoch() throws {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        let laptop = DeviceIdentity.generate(name: "laptop")
        try fixture.add(phone)
        try fixture.add(laptop)
        let wrap = try KeyWrap.wrap(fixture.secrets, epoch: 1, group: fixture.group, to: phone.publicIdentity, by: fixture.founder)
        #expect(rejection { _ = try wrap.open(as: laptop, group: fixture.group, chain: fixture.chain) } == .notRecipient)
        let other = try SyncGroupFixture()
        #expect(rejection { _ = try wrap.open(as: phone, group: other.group, chain: other.chain) } == .wrongGroup(.keyWrap))
        // A member signs the same ciphertext under epoch 2: HPKE's info and associated data no longer match.
        let moved = try relabelled(wrap, epoch: 2, signer: fixture.founder)
        #expect(moved.epoch == 2)
        #expect(rejection { _ = try moved.open(as: phone, group: fixture.group, chain: fixture.chain) } == .wrapDoesNotOpen)
        // A wrap for an epoch the reader has no roster of yet.
        let ahead = try relabelled(wrap, epoch: 7, signer: fixture.founder)
        #expect(rejection { _ = try ahead.open(as: phone, group: fixture.group, chain: fixture.chain) } == .unknownEpoch(7))
    }

    @Test("A wrap made by a non-member, or naming a member but signed by another key, is rejected")
    func wrapperMustBeMember() throws {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        try fixture.add(phone)
        let outsider = DeviceIdentity.generate(name: "outsider")
        let stolen = try KeyWrap.wrap(fixture.secrets, epoch: 1, group: fixture.group, to: phone.publicIdentity, by: outsider)
        #expect(rejection { _ = try stolen.open(as: phone, group: fixture.group, chain: fixture.chain) }
                == .unknownAuthor(.keyWrap, epoch: 1))
        let genuine = try KeyWrap.wrap(fixture.secrets, epoch: 1, group: fixture.group, to: phone.publicIdentity, by: fixture.founder)
        let forged = try relabelled(genuine, epoch: 1, signer: outsider, wrapper: fixture.founder.id)
        #expect(rejection { _ = try forged.open(as: phone, group: fixture.group, chain: fixture.chain) } == .badSignature(.keyWrap))
    }

    @Test("After a removal, the new epoch's wrap goes to the remaining members only, and a wrap keeping the old key is rejected")
    func removalRotates() throws {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        let laptop = DeviceIdentity.generate(name: "laptop")
        try fixture.add(phone)
        try fixture.add(laptop)
        let beforeRemoval = fixture.secrets
        try fixture.remove(phone.id)
        let wrap = try KeyWrap.wrap(fixture.secrets, epoch: 3, group: fixture.group, to: laptop.publicIdentity, by: fixture.founder)
        let secrets = try wrap.open(as: laptop, group: fixture.group, chain: fixture.chain)
        #expect(secrets.key(epoch: 3) == fixture.secrets.key(epoch: 3))
        #expect(rejection { _ = try wrap.open(as: phone, group: fixture.group, chain: fixture.chain) } == .notRecipient)
        // A member who "removes" but keeps the key the removed phone holds.
        var kept = beforeRemoval
        _ = kept.advanceKeepingKey()
        let stale = try KeyWrap.wrap(kept, epoch: 3, group: fixture.group, to: laptop.publicIdentity, by: fixture.founder)
        #expect(rejection { _ = try stale.open(as: laptop, group: fixture.group, chain: fixture.chain) }
                == .keyKeptAfterRemoval(epoch: 3))
    }

    @Test("Wrapping refuses an epoch the secrets do not reach")
    func epochNotHeld() throws {
        let fixture = try SyncGroupFixture()
        #expect(throws: MembershipError.epochNotHeld(1)) {
            _ = try KeyWrap.wrap(fixture.secrets, epoch: 1, group: fixture.group,
                                 to: DeviceIdentity.generate(name: "x").publicIdentity, by: fixture.founder)
        }
    }
}
