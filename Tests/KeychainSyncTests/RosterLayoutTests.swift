import Crypto
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
                            removed: [(DeviceID, UInt64)], vouched: [Data] = [],
                            signer: DeviceIdentity) throws -> Data {
        func bigEndian<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }
        var body = Data("KSRS".utf8) + [1] + group.bytes + bigEndian(epoch) + previousHash
        body += bigEndian(UInt32(members.count))
        for member in members { body += bigEndian(UInt32(member.count)) + member }
        body += bigEndian(UInt32(removed.count))
        for (device, removalEpoch) in removed.sorted(by: { $0.0 < $1.0 }) { body += device.bytes + bigEndian(removalEpoch) }
        body += bigEndian(UInt32(vouched.count))
        for record in vouched { body += record }
        body += signer.id.bytes
        return body + (try signer.signature(for: body))
    }

    @Test("Roster's encoding is the documented layout, byte for byte before the signature")
    func layoutMatches() throws {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        try fixture.add(phone)
        let first = try fixture.record(Data("a".utf8), by: phone, item: "a")
        let second = try fixture.record(Data("b".utf8), by: phone, item: "b")
        try fixture.remove(phone.id, vouching: [second, first])
        let written = fixture.chain.current
        // Vouched records (item id, version, SHA-256 of the signed bytes) in ascending byte order.
        let vouched = [first, second].map { $0.itemID + $0.version.encoded + Data(SHA256.hash(data: $0.encoded.dropLast(64))) }
            .sorted { $0.lexicographicallyPrecedes($1) }
        let hand = try handRoster(group: fixture.group, epoch: 2, previousHash: try #require(fixture.chain.roster(epoch: 1)).hash,
                                  members: [fixture.founder.publicIdentity.encoded], removed: [(phone.id, 2)],
                                  vouched: vouched, signer: fixture.founder)
        #expect(hand.dropLast(64) == written.encoded.dropLast(64))
        #expect(try Roster(encoded: hand).hash == written.hash)
    }

    @Test("A member's roster that swaps another member's keys, drops a member without recording it, undoes or changes a removal, or removes a non-member does not follow")
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

        // Dropping the phone with a removal dated to another epoch.
        #expect(rejection { try attempt.append(next(atOne, members: [founder], removed: [(phone.id, 1)])) }
                == .rosterInconsistent(epoch: 2))
        // Recording a removal of a device that was never a member.
        #expect(rejection { try attempt.append(next(atOne, members: [founder, phone.publicIdentity.encoded],
                                                    removed: [(DeviceID.random(), 2)])) }
                == .rosterInconsistent(epoch: 2))

        try fixture.remove(phone.id)
        let atTwo = fixture.chain
        attempt = atTwo
        #expect(rejection { try attempt.append(next(atTwo, members: [founder], removed: [])) } == .rosterInconsistent(epoch: 3))
        #expect(rejection { try attempt.append(next(atTwo, members: [founder], removed: [(phone.id, 3)])) }
                == .rosterInconsistent(epoch: 3))
        // The same roster keeping the removal follows.
        #expect(rejection { try attempt.append(next(atTwo, members: [founder], removed: [(phone.id, 2)])) } == nil)
    }

    @Test("A roster listing a member twice, a removed device as a member, no member at all, or a removal dated after it is malformed")
    func malformedRosters() throws {
        let fixture = try SyncGroupFixture()
        let founder = fixture.founder.publicIdentity.encoded
        let hash = fixture.chain.current.hash
        for (members, removed) in [([founder, founder], []), ([founder], [(fixture.founder.id, UInt64(1))]), ([], []),
                                   ([founder], [(DeviceID.random(), UInt64(2))]), ([founder], [(DeviceID.random(), UInt64(0))])] {
            let bytes = try handRoster(group: fixture.group, epoch: 1, previousHash: hash, members: members,
                                       removed: removed, signer: fixture.founder)
            #expect(rejection { _ = try Roster(encoded: bytes) } == .malformed(.roster))
        }
    }

    /// Requirement "a removal vouches for exactly the removed device's records that stay valid":
    /// a roster may vouch only for records of a device it removes itself (not one removed
    /// earlier, whose list is closed, nor a member), each once and in order.
    @Test("A roster vouching for a device it does not remove, out of order or twice is malformed")
    func malformedVouchedLists() throws {
        let fixture = try SyncGroupFixture()
        let founder = fixture.founder.publicIdentity.encoded
        let (phone, earlier) = (DeviceID.random(), DeviceID.random())
        func vouched(_ device: DeviceID, item: UInt8, counter: UInt64 = 1) -> Data {
            Data(repeating: item, count: 32) + RecordVersion(time: 1, device: device, counter: counter).encoded
                + Data(repeating: 0xD1, count: 32)
        }
        let valid = [vouched(phone, item: 1), vouched(phone, item: 2)]
        func roster(_ list: [Data]) throws -> Data {
            try handRoster(group: fixture.group, epoch: 5, previousHash: Data(count: 32), members: [founder],
                           removed: [(phone, 5), (earlier, 3)], vouched: list, signer: fixture.founder)
        }
        #expect(try Roster(encoded: roster(valid)).vouched.count == 2)
        for list in [[valid[1], valid[0]], [valid[0], valid[0]], [vouched(earlier, item: 1)],
                     [vouched(fixture.founder.id, item: 1)]] {
            #expect(rejection { _ = try Roster(encoded: roster(list)) } == .malformed(.roster))
        }
    }
}
