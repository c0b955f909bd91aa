import Crypto
import Foundation
import KeychainSync
import Testing
import TestSupport

/// Every decoder bounds-checks and throws on bad input, never traps; stored forms round-trip;
/// no description shows a secret (contract: Membership and Records; rules: bad input, secrets).
@Suite("Sync encodings")
struct EncodingTests {
    /// One valid encoding of every message, with the decoder of each.
    private func samples() throws -> [(String, Data, (Data) throws -> Void)] {
        var fixture = try SyncGroupFixture()
        let phone = DeviceIdentity.generate(name: "phone")
        try fixture.add(phone)
        let record = try fixture.record(Data("content".utf8), by: fixture.founder)
        let wrap = try KeyWrap.wrap(fixture.secrets, epoch: 1, group: fixture.group, to: phone.publicIdentity, by: fixture.founder)
        let request = try JoinRequest.make(group: fixture.group, genesisHash: fixture.chain.genesis.hash, device: phone)
        return [
            ("record", record.encoded, { _ = try SealedRecord(encoded: $0, serverItemID: record.itemID, serverVersion: record.version.encoded) }),
            ("roster", fixture.chain.current.encoded, { _ = try Roster(encoded: $0) }),
            ("key wrap", wrap.encoded, { _ = try KeyWrap(encoded: $0) }),
            ("join request", request.encoded, { _ = try JoinRequest(encoded: $0) }),
            ("public identity", phone.publicIdentity.encoded, { _ = try DevicePublicIdentity(encoded: $0) }),
            ("identity", phone.serialized, { _ = try DeviceIdentity(serialized: $0) }),
            ("secrets", fixture.secrets.serialized, { _ = try GroupSecrets(serialized: $0) }),
            ("version", record.version.encoded, { _ = try RecordVersion(encoded: $0) }),
        ]
    }

    @Test("Every truncation, extension and random garbage of every message is refused with an error")
    func decodersNeverTrap() throws {
        var random = SeededGenerator(seed: 0xBADB17E5)
        for (name, encoded, decode) in try samples() {
            #expect(throws: Never.self, "\(name)") { try decode(encoded) }
            for count in 0..<encoded.count {
                #expect(throws: SyncRejection.self, "\(name) cut at \(count)") { try decode(encoded.prefix(count)) }
            }
            #expect(throws: SyncRejection.self, "\(name) extended") { try decode(encoded + [0]) }
            // Any 32 bytes are a version: it has no header or lengths to get wrong.
            for _ in 0..<(name == "version" ? 0 : 50) {
                let garbage = Data((0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
                #expect(throws: SyncRejection.self, "\(name) garbage") { try decode(garbage) }
                // Valid magic and format, then garbage: every later field is checked too.
                #expect(throws: SyncRejection.self, "\(name) header then garbage") { try decode(encoded.prefix(5) + garbage) }
            }
        }
    }

    @Test("A length prefix claiming more than the message holds is refused without allocating it")
    func hugeLengths() throws {
        let secrets = GroupSecrets.new().serialized
        var claimsMany = Data(secrets.prefix(37))
        claimsMany.append(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(rejection { _ = try GroupSecrets(serialized: claimsMany) } == .malformed(.groupSecrets))
        let identity = DeviceIdentity.generate(name: "n").publicIdentity.encoded
        var longName = Data(identity.prefix(21))
        longName.append(contentsOf: [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(rejection { _ = try DevicePublicIdentity(encoded: longName) } == .malformed(.devicePublicIdentity))
    }

    @Test("A device identity and group secrets serialize and come back with the same keys")
    func storedFormsRoundTrip() throws {
        var fixture = try SyncGroupFixture()
        let identity = DeviceIdentity.generate(name: "host.example")
        let restored = try DeviceIdentity(serialized: identity.serialized)
        #expect(restored.publicIdentity == identity.publicIdentity)
        // The restored identity's private keys sign and unwrap as the original's.
        try fixture.add(identity)
        let record = try fixture.record(Data("x".utf8), by: restored)
        #expect(try record.fromServer().open(secrets: fixture.secrets, chain: fixture.chain) == Data("x".utf8))
        let wrap = try KeyWrap.wrap(fixture.secrets, epoch: 1, group: fixture.group, to: identity.publicIdentity, by: fixture.founder)
        #expect(try wrap.open(as: restored, group: fixture.group, chain: fixture.chain).key(epoch: 1) == fixture.secrets.key(epoch: 1))

        let secrets = try GroupSecrets(serialized: fixture.secrets.serialized)
        #expect(secrets.currentEpoch == 1 && secrets.key(epoch: 0) == fixture.secrets.key(epoch: 0))
        #expect(secrets.key(epoch: 2) == nil)
    }

    @Test("An item id is HMAC-SHA256 of the identity bytes under the id key the secrets carry, also from many threads")
    func itemIDsAreHMACsOfTheIdentity() async throws {
        let secrets = GroupSecrets.new()
        // The serialized form: magic (4), format (1), then the id key (32).
        let idKey = SymmetricKey(data: secrets.serialized.dropFirst(5).prefix(32))
        let identities = (0..<200).map { Data((0..<$0).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }) }
        for identity in identities {
            #expect(secrets.itemID(for: identity) == Data(HMAC<SHA256>.authenticationCode(for: identity, using: idKey)))
        }
        // A copy, and secrets restored from the stored form, give the same ids.
        let restored = try GroupSecrets(serialized: secrets.serialized)
        #expect(identities.allSatisfy { restored.itemID(for: $0) == secrets.itemID(for: $0) })
        // Copies of the secrets share one keyed hasher; ids computed at once on eight threads
        // are each the one computed alone.
        let expected = identities.map { secrets.itemID(for: $0) }
        let wrong = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<5).reduce(0) { count, _ in
                        count + zip(identities, expected).filter { secrets.itemID(for: $0) != $1 }.count
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }

    @Test("Descriptions of identities, secrets and rejections show no key material")
    func descriptionsHideSecrets() throws {
        let identity = DeviceIdentity.generate(name: "host")
        let secrets = GroupSecrets.new()
        let privateBytes = identity.serialized.suffix(64)
        let keyBytes = try #require(secrets.key(epoch: 0)).withUnsafeBytes { Data($0) }
        for text in [String(describing: identity), String(reflecting: identity), "\(identity)",
                     String(describing: secrets), String(reflecting: secrets)] {
            for secret in [privateBytes.prefix(32), privateBytes.suffix(32), keyBytes] {
                let hex = secret.map { String(format: "%02x", $0) }.joined()
                #expect(!text.lowercased().contains(hex.prefix(16)), "\(text)")
            }
        }
        #expect(String(describing: identity).contains(identity.id.shortHex))
    }

    @Test("Device names that could fool a terminal are cleaned when made and refused when received")
    func deviceNames() throws {
        let identity = DeviceIdentity.generate(name: "evil\u{1B}[31m\u{202E}name")
        #expect(identity.name == "evil?[31m?name")
        #expect(DeviceIdentity.generate(name: "").name == "device")
        #expect(DeviceIdentity.generate(name: String(repeating: "é", count: 200)).name.utf8.count <= 255)
        // A received identity whose name holds an escape, written per the documented layout.
        let clean = DeviceIdentity.generate(name: "abcd").publicIdentity.encoded
        var dirty = Data(clean)
        dirty[25] = 0x1B
        #expect(rejection { _ = try DevicePublicIdentity(encoded: dirty) } == .malformed(.devicePublicIdentity))
        dirty[25] = 0xFF  // not UTF-8
        #expect(rejection { _ = try DevicePublicIdentity(encoded: dirty) } == .malformed(.devicePublicIdentity))
    }
}
