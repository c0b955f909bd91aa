import Crypto
import Foundation
import KeychainSync
import Testing

/// What proves a fork of a sync group's membership, and what does not: a roster or a record
/// signed by a member of the epoch before that disagrees with the reader's chain proves one;
/// anything nobody it knows signed is only rejected (contract: forks are detected; a server or
/// an outsider cannot stop the group with a made-up fork).
@Suite("Fork proofs")
struct ForkProofTests {
    /// A group of the founder and `phone` at epoch 1, and the two rosters of epoch 2 a fork
    /// makes: the founder removes the phone, the phone removes the founder.
    private func forked() throws -> (fixture: SyncGroupFixture, phone: DeviceIdentity, ours: Roster, theirs: Roster) {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        try fixture.add(phone)
        let common = fixture.chain.current
        let theirs = try common.removing(fixture.founder.id, vouching: [], signer: phone)
        try fixture.remove(phone.id)
        return (fixture, phone, fixture.chain.current, theirs)
    }

    @Test("Another roster of an epoch the reader holds, signed by a member of the epoch before, is a fork; the same roster is not")
    func rosterOfKnownEpoch() throws {
        let (fixture, phone, ours, theirs) = try forked()
        let fork = try #require(fixture.chain.fork(shownBy: theirs))
        #expect(fork.epoch == 2 && fork.evidence == .roster)
        #expect(fork.otherDevice == phone.id && fork.otherName == "phone")
        #expect(fork.ownSigner == fixture.founder.id && fork.ownSignerName == "founder")
        #expect(fork.summary.contains("forked at key epoch 2"))
        #expect(fork.summary.contains("phone (\(phone.id.shortHex))"))
        #expect(fixture.chain.fork(shownBy: ours) == nil)
        #expect(fixture.chain.fork(shownBy: try #require(fixture.chain.roster(epoch: 1))) == nil)
    }

    @Test("A roster nobody of the epoch before signed proves no fork, whatever it says")
    func rosterByOutsider() throws {
        let (fixture, _, _, theirs) = try forked()
        let outsider = DeviceIdentity.generate(name: "outsider")
        // The layout: the signer's id is the 16 bytes before the 64-byte signature.
        var body = Data(theirs.encoded.dropLast(64))
        body.replaceSubrange((body.count - 16)..<body.count, with: outsider.id.bytes)
        #expect(fixture.chain.fork(shownBy: try Roster(encoded: body + outsider.signature(for: body))) == nil)
        // The phone's id with the outsider's signature.
        var named = Data(theirs.encoded.dropLast(64))
        named.replaceSubrange((named.count - 16)..<named.count, with: theirs.signer.bytes)
        #expect(fixture.chain.fork(shownBy: try Roster(encoded: named + outsider.signature(for: named))) == nil)
    }

    @Test("A next roster that follows another roster of the reader's current epoch is a fork at that epoch")
    func chainThatDoesNotExtend() throws {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        let laptop = DeviceIdentity.generate(name: "laptop")
        try fixture.add(phone)
        try fixture.add(laptop)
        let common = fixture.chain.current
        // Here the founder removes the laptop; elsewhere the phone adds a tablet, then a watch.
        try fixture.remove(laptop.id)
        let elsewhere = try common.adding(DeviceIdentity.generate(name: "tablet").publicIdentity, signer: phone)
        let next = try elsewhere.adding(DeviceIdentity.generate(name: "watch").publicIdentity, signer: phone)
        let fork = try #require(fixture.chain.fork(shownBy: next))
        #expect(fork.epoch == 3 && fork.evidence == .nextRoster && fork.otherDevice == phone.id)
        #expect(fork.summary.contains("signed a roster of the next epoch that follows another roster of that epoch"))
        // What follows this chain is no fork.
        let follows = try fixture.chain.current.adding(DeviceIdentity.generate(name: "watch").publicIdentity,
                                                       signer: fixture.founder)
        #expect(fixture.chain.fork(shownBy: follows) == nil)
    }

    @Test("A record signed under another roster of its epoch is a fork, also by a device that roster removed")
    func recordUnderAnotherRoster() throws {
        let group = try forked()
        var fixture = group.fixture
        let (phone, theirs) = (group.phone, group.theirs)
        // The phone writes under its own roster of epoch 2 (its key of epoch 2 is another one,
        // which the reader cannot open: the head is read before anything is opened).
        var phoneSecrets = GroupSecrets.new()
        _ = phoneSecrets.advanceKeepingKey()
        _ = phoneSecrets.rotate()
        let record = try fixture.record(Data("phone's".utf8), by: phone, secrets: phoneSecrets, rosterHead: theirs.hash)
        let fork = try #require(try record.fromServer().fork(chain: fixture.chain))
        #expect(fork.epoch == 2 && fork.evidence == .record && fork.otherDevice == phone.id)
        #expect(fork.summary.contains("writes records under another roster"))
        #expect(rejection { try record.fromServer().authenticate(chain: fixture.chain) } == .rosterHeadMismatch(epoch: 2))
        // The reader's own records name its own roster: no fork.
        let own = try fixture.record(Data("founder's".utf8), by: fixture.founder)
        #expect(try own.fromServer().fork(chain: fixture.chain) == nil)
        #expect(try own.fromServer().open(secrets: fixture.secrets, chain: fixture.chain) == Data("founder's".utf8))
    }

    @Test("A record naming a roster head nobody known signed is rejected, not a fork; one beyond the chain is an unknown head")
    func recordsThatProveNothing() throws {
        var fixture = try forked().fixture
        let outsider = DeviceIdentity.generate(name: "outsider")
        let forged = try fixture.record(Data("x".utf8), by: outsider, rosterHead: Data(repeating: 7, count: 32))
        #expect(rejection { _ = try forged.fromServer().fork(chain: fixture.chain) } == .unknownAuthor(.record, epoch: 2))
        // The founder's signature under another head, the head changed after signing.
        let genuine = try fixture.record(Data("y".utf8), by: fixture.founder)
        var altered = genuine.encoded
        altered[altered.startIndex + 100] ^= 1
        #expect(rejection { _ = try SealedRecord(encoded: altered, serverItemID: genuine.itemID,
                                                 serverVersion: genuine.version.encoded).fork(chain: fixture.chain) }
                == .badSignature(.record))
        // A head of an epoch the reader has no roster of: nothing to compare, rejected.
        var ahead = fixture.secrets
        _ = ahead.advanceKeepingKey()
        let beyond = try fixture.record(Data("z".utf8), by: fixture.founder, secrets: ahead, rosterHead: Data(repeating: 9, count: 32))
        #expect(rejection { _ = try beyond.fromServer().fork(chain: fixture.chain) } == .unknownRosterHead(epoch: 3))
    }

    /// Records agents wrote before records named a roster head (format 1) are still read.
    @Test("A format 1 record (no roster head), built from its documented layout, still opens and proves nothing")
    func formatOneStillRead() throws {
        let fixture = try SyncGroupFixture()
        let content = Data("written by an older agent".utf8)
        let itemID = fixture.secrets.itemID(for: Data("item".utf8))
        let version = RecordVersion(time: 5, device: fixture.founder.id, counter: 1)
        var header = Data("KSRC".utf8) + [1] + fixture.group.bytes + itemID + version.encoded
        header += withUnsafeBytes(of: UInt64(0).bigEndian) { Data($0) } + [0]
        let key = try #require(fixture.secrets.key(epoch: 0))
        let box = try #require(try AES.GCM.seal(content, using: key, authenticating: header).combined)
        let body = header + withUnsafeBytes(of: UInt32(box.count).bigEndian) { Data($0) } + box
        let record = try SealedRecord(encoded: body + fixture.founder.signature(for: body), serverItemID: itemID,
                                      serverVersion: version.encoded)
        #expect(record.rosterHead == nil)
        #expect(try record.fork(chain: fixture.chain) == nil)
        #expect(try record.open(secrets: fixture.secrets, chain: fixture.chain) == content)
    }
}
