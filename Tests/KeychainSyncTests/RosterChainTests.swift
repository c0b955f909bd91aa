import Foundation
import KeychainSync
import Testing

/// Members verify every roster against the chain from the pinned genesis, so a server (or a
/// non-member) cannot add members, skip or fork epochs (contract: Roster chain).
@Suite("Roster chain")
struct RosterChainTests {
    /// `roster` with its signer field (the 16 bytes before the signature) set to `signer` and
    /// signed again by `signer`, per the documented layout.
    private func resigned(_ roster: Roster, by signer: DeviceIdentity, naming named: DeviceID? = nil) throws -> Roster {
        var body = Data(roster.encoded.dropLast(64))
        body.replaceSubrange((body.count - 16)..<body.count, with: (named ?? signer.id).bytes)
        return try Roster(encoded: body + signer.signature(for: body))
    }

    @Test("Adding and removing members extends the chain; rosters decode to the same members and removals")
    func addAndRemove() throws {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        let laptop = DeviceIdentity.generate(name: "laptop")
        try fixture.add(phone)
        try fixture.add(laptop)
        let kept = try fixture.record(Data("kept".utf8), by: phone)
        try fixture.remove(phone.id, vouching: [kept])
        let current = try Roster(encoded: fixture.chain.current.encoded)
        #expect(current.epoch == 3 && fixture.secrets.currentEpoch == 3)
        #expect(current.members.map(\.id) == [fixture.founder.id, laptop.id])
        #expect(current.removed == [phone.id: 3])
        #expect(current.vouched == [kept.vouched])
        #expect(current.hash == fixture.chain.current.hash)
        #expect(current.previousHash == fixture.chain.roster(epoch: 2)?.hash)
        #expect(fixture.chain.roster(epoch: 4) == nil)
    }

    @Test("A chain starts only from the pinned genesis hash")
    func genesisPinned() throws {
        let fixture = try SyncGroupFixture()
        let genesis = fixture.chain.genesis
        let impostor = try Roster.genesis(group: fixture.group, founder: .generate(name: "founder"))
        #expect(rejection { _ = try RosterChain(genesis: impostor, pinnedHash: genesis.hash) } == .genesisMismatch)
        #expect(rejection { _ = try RosterChain(genesis: genesis, pinnedHash: Data(count: 32)) } == .genesisMismatch)
        // A later roster is no genesis, even when pinned.
        var grown = fixture
        try grown.add(.generate(name: "phone"))
        let later = grown.chain.current
        #expect(rejection { _ = try RosterChain(genesis: later, pinnedHash: later.hash) } == .genesisMismatch)
    }

    @Test("A roster signed by a non-member, or naming a member but signed by another key, does not follow")
    func forgedSigner() throws {
        var fixture = try SyncGroupFixture()
        let chain = fixture.chain
        try fixture.add(.generate(name: "phone"))
        let genuine = fixture.chain.current
        let outsider = DeviceIdentity.generate(name: "outsider")
        var attempt = chain
        #expect(rejection { try attempt.append(try resigned(genuine, by: outsider)) } == .unknownAuthor(.roster, epoch: 0))
        #expect(rejection { try attempt.append(try resigned(genuine, by: outsider, naming: fixture.founder.id)) }
                == .badSignature(.roster))
        #expect(throws: MembershipError.signerNotMember) {
            _ = try chain.current.adding(outsider.publicIdentity, signer: outsider)
        }
        // The genuine roster still follows.
        try attempt.append(genuine)
        #expect(attempt.current.epoch == 1)
    }

    @Test("A roster that skips an epoch does not follow")
    func skippedEpoch() throws {
        var fixture = try SyncGroupFixture()
        let chain = fixture.chain
        try fixture.add(.generate(name: "phone"))
        try fixture.add(.generate(name: "laptop"))
        var attempt = chain
        #expect(rejection { try attempt.append(fixture.chain.current) } == .rosterEpochNotNext(expected: 1, found: 2))
    }

    @Test("A roster naming another previous hash (a fork) does not follow")
    func wrongPreviousHash() throws {
        var left = try SyncGroupFixture()
        var right = left
        try left.add(.generate(name: "phone"))
        try right.add(.generate(name: "laptop"))
        try right.add(.generate(name: "tablet"))
        #expect(left.chain.current.epoch == 1 && right.chain.current.epoch == 2)
        #expect(rejection { try left.chain.append(right.chain.current) } == .rosterPreviousHashMismatch(epoch: 2))
    }

    @Test("A roster of another group does not follow")
    func otherGroup() throws {
        var fixture = try SyncGroupFixture()
        let founder = fixture.founder
        let otherGenesis = try Roster.genesis(group: .random(), founder: founder)
        let otherNext = try otherGenesis.adding(DeviceIdentity.generate(name: "phone").publicIdentity, signer: founder)
        #expect(rejection { try fixture.chain.append(otherNext) } == .wrongGroup(.roster))
    }

    @Test("Roster changes refuse a signer outside the roster, a duplicate, a removed device, the last member")
    func rosterChangeRules() throws {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        try fixture.add(phone)
        let current = fixture.chain.current
        #expect(throws: MembershipError.alreadyMember) { _ = try current.adding(phone.publicIdentity, signer: fixture.founder) }
        #expect(throws: MembershipError.notMember) { _ = try current.removing(.random(), vouching: [], signer: fixture.founder) }
        // A removal vouches only for the removed device's records.
        let founders = try fixture.record(Data("x".utf8), by: fixture.founder)
        #expect(throws: MembershipError.vouchedForAnotherDevice) {
            _ = try current.removing(phone.id, vouching: [founders.vouched], signer: fixture.founder)
        }
        try fixture.remove(phone.id)
        #expect(throws: MembershipError.previouslyRemoved) {
            _ = try fixture.chain.current.adding(phone.publicIdentity, signer: fixture.founder)
        }
        #expect(throws: MembershipError.lastMember) {
            _ = try fixture.chain.current.removing(fixture.founder.id, vouching: [], signer: fixture.founder)
        }
    }

    @Test("A member may leave by signing its own removal; the next roster is then signed by a remaining member")
    func leaving() throws {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        try fixture.add(phone)
        let own = try fixture.record(Data("own".utf8), by: phone)
        try fixture.chain.append(fixture.chain.current.removing(phone.id, vouching: [own.vouched], signer: phone))
        #expect(fixture.chain.current.removed[phone.id] == 2)
        #expect(fixture.chain.outlivesRemovals(own.vouched))
        #expect(rejection {
            try fixture.chain.append(try fixture.chain.current.adding(DeviceIdentity.generate(name: "x").publicIdentity,
                                                                     signer: fixture.founder))
        } == nil)
    }
}
