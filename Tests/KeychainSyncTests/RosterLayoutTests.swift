import Foundation
import KeychainSync
import Testing

/// Rosters written by hand from the documented layout, signed by a real member: the layout is
/// what Roster writes, and a member's signature alone does not let it rewrite history
/// (contract: Roster chain).
@Suite("Roster layout")
struct RosterLayoutTests {
    /// The documented encoding of a roster, signed by `signer`.
    private func handRoster(group: GroupID, epoch: UInt64, previousHash: Data, members: [Data],
                            removed: [(DeviceID, UInt64)], signer: DeviceIdentity) throws -> Data {
        func bigEndian<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }
        var body = Data("KSRS".utf8) + [1] + group.bytes + bigEndian(epoch) + previousHash
        body += bigEndian(UInt32(members.count))
        for member in members { body += bigEndian(UInt32(member.count)) + member }
        body += bigEndian(UInt32(removed.count))
        for (device, cutoff) in removed.sorted(by: { $0.0 < $1.0 }) { body += device.bytes + bigEndian(cutoff) }
        body += signer.id.bytes
        return body + (try signer.signature(for: body))
    }

    @Test("Roster's encoding is the documented layout, byte for byte before the signature")
    func layoutMatches() throws {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        try fixture.add(phone)
        try fixture.remove(phone.id, cutoff: 12)
        let written = fixture.chain.current
        let hand = try handRoster(group: fixture.group, epoch: 2, previousHash: try #require(fixture.chain.roster(epoch: 1)).hash,
                                  members: [fixture.founder.publicIdentity.encoded], removed: [(phone.id, 12)],
                                  signer: fixture.founder)
        #expect(hand.dropLast(64) == written.encoded.dropLast(64))
        #expect(try Roster(encoded: hand).hash == written.hash)
    }

    @Test("A member's roster that swaps another member's keys, drops a member without a cutoff, or undoes or changes a removal does not follow")
    func historyCannotBeRewritten() throws {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        try fixture.add(phone)
        let atOne = fixture.chain
        let founder = fixture.founder.publicIdentity.encoded
        // Another device's keys under the phone's id (the id is bytes 5..<21 of an identity).
        var impostor = DeviceIdentity.generate(name: "phone").publicIdentity.encoded
        impostor.replaceSubrange(5..<21, with: phone.id.bytes)

        func next(_ chain: RosterChain, members: [Data], removed: [(DeviceID, UInt64)]) throws -> Roster {
            try Roster(encoded: handRoster(group: fixture.group, epoch: chain.current.epoch + 1,
                                           previousHash: chain.current.hash, members: members, removed: removed,
                                           signer: fixture.founder))
        }
        var attempt = atOne
        #expect(rejection { try attempt.append(next(atOne, members: [founder, impostor], removed: [])) }
                == .rosterInconsistent(epoch: 2))
        #expect(rejection { try attempt.append(next(atOne, members: [founder], removed: [])) }
                == .rosterInconsistent(epoch: 2))

        try fixture.remove(phone.id, cutoff: 4)
        let atTwo = fixture.chain
        attempt = atTwo
        #expect(rejection { try attempt.append(next(atTwo, members: [founder], removed: [])) } == .rosterInconsistent(epoch: 3))
        #expect(rejection { try attempt.append(next(atTwo, members: [founder], removed: [(phone.id, 99)])) }
                == .rosterInconsistent(epoch: 3))
        // The same roster keeping the removal follows.
        #expect(rejection { try attempt.append(next(atTwo, members: [founder], removed: [(phone.id, 4)])) } == nil)
    }

    @Test("A roster listing a member twice, a removed device as a member, or no member at all is malformed")
    func malformedRosters() throws {
        let fixture = try SyncGroupFixture()
        let founder = fixture.founder.publicIdentity.encoded
        let hash = fixture.chain.current.hash
        for (members, removed) in [([founder, founder], []), ([founder], [(fixture.founder.id, UInt64(1))]), ([], [])] {
            let bytes = try handRoster(group: fixture.group, epoch: 1, previousHash: hash, members: members,
                                       removed: removed, signer: fixture.founder)
            #expect(rejection { _ = try Roster(encoded: bytes) } == .malformed(.roster))
        }
    }
}
