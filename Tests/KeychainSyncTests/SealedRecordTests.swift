import Crypto
import Foundation
import KeychainSync
import Testing
import TestSupport

/// A member accepts a record only when it is authentic for the columns the server filed it
/// under, by a member of its epoch, and opens under that epoch's key (contract: Records).
@Suite("Sealed records")
struct SealedRecordTests {
    let content = Data("attributes and the secret hunter2".utf8)

    @Test("Seal then open returns the content, for records and tombstones alike")
    func roundTrip() throws {
        var fixture = try SyncGroupFixture()
        for tombstone in [false, true] {
            let record = try fixture.record(content, by: fixture.founder, tombstone: tombstone)
            let read = try record.fromServer()
            #expect(read.isTombstone == tombstone)
            #expect(read.group == fixture.group && read.epoch == 0)
            #expect(try read.open(secrets: fixture.secrets, chain: fixture.chain) == content)
        }
    }

    @Test("A record as sealed is the record its encoding parses to: fields, digest and content")
    func sealedRecordIsItsParsedEncoding() throws {
        var fixture = try SyncGroupFixture()
        for tombstone in [false, true] {
            let sealed = try fixture.record(content, by: fixture.founder, tombstone: tombstone)
            let parsed = try sealed.fromServer()
            #expect(sealed.encoded == parsed.encoded)
            #expect(sealed.group == parsed.group && sealed.itemID == parsed.itemID && sealed.version == parsed.version)
            #expect(sealed.epoch == parsed.epoch && sealed.isTombstone == parsed.isTombstone)
            #expect(sealed.rosterHead == parsed.rosterHead)
            #expect(sealed.digest == parsed.digest)
            #expect(sealed.digest == Data(SHA256.hash(data: parsed.encoded.dropLast(64))))
            #expect(try sealed.open(secrets: fixture.secrets, chain: fixture.chain) == content)
        }
    }

    @Test("The encoding carries no plaintext content")
    func noPlaintext() throws {
        var fixture = try SyncGroupFixture()
        let record = try fixture.record(content, by: fixture.founder)
        #expect(record.encoded.range(of: Data("hunter2".utf8)) == nil)
    }

    /// The reason each byte of the documented layout gives when flipped, the server's columns
    /// unchanged.
    private func expectedReason(at offset: Int, count: Int) -> (SyncRejection) -> Bool {
        switch offset {
        case 0..<4: { $0 == .malformed(.record) }                          // magic
        case 4: { if case .unknownFormat(.record, _) = $0 { true } else { false } }
        case 5..<21: { $0 == .wrongGroup(.record) }                        // group id
        case 21..<53: { $0 == .itemIDMismatch }                            // item id vs the column
        case 53..<85: { $0 == .versionMismatch }                           // version vs the column
        case 85..<93: { if case .unknownEpoch = $0 { true } else { false } }
        case 93: { $0 == .badSignature(.record) }                          // tombstone flag flipped
        case 94..<126: { $0 == .rosterHeadMismatch(epoch: 0) }             // roster head
        case 126..<130: { $0 == .malformed(.record) }                      // sealed box length
        default: { $0 == .badSignature(.record) }                          // sealed box, signature
        }
    }

    @Test("A flipped byte anywhere in the record is rejected with the reason of its field")
    func everyFlippedByteRejected() throws {
        var fixture = try SyncGroupFixture()
        let record = try fixture.record(content, by: fixture.founder)
        for offset in 0..<record.encoded.count {
            let reason = rejection {
                let read = try SealedRecord(encoded: flipped(record.encoded, at: offset),
                                            serverItemID: record.itemID, serverVersion: record.version.encoded)
                _ = try read.open(secrets: fixture.secrets, chain: fixture.chain)
            }
            let reasonMatches = reason.map(expectedReason(at: offset, count: record.encoded.count)) ?? false
            #expect(reasonMatches, "byte \(offset): \(reason.map(String.init(describing:)) ?? "accepted")")
        }
    }

    @Test("A record presented under another item id or version (the server's columns) is rejected")
    func serverColumnsChecked() throws {
        var fixture = try SyncGroupFixture()
        let record = try fixture.record(content, by: fixture.founder, item: "a")
        let other = try fixture.record(content, by: fixture.founder, item: "b")
        #expect(rejection { _ = try SealedRecord(encoded: record.encoded, serverItemID: other.itemID,
                                                 serverVersion: record.version.encoded) } == .itemIDMismatch)
        #expect(rejection { _ = try SealedRecord(encoded: record.encoded, serverItemID: record.itemID,
                                                 serverVersion: other.version.encoded) } == .versionMismatch)
        #expect(rejection { _ = try SealedRecord(encoded: record.encoded, serverItemID: record.itemID,
                                                 serverVersion: Data(count: 5)) } == .versionMismatch)
    }

    @Test("A replayed older version is still authentic but orders below the newer one (last writer wins)")
    func replayOrdersBelow() throws {
        var fixture = try SyncGroupFixture()
        let older = try fixture.record(Data("old".utf8), by: fixture.founder, time: 1_000)
        let newer = try fixture.record(Data("new".utf8), by: fixture.founder, time: 2_000)
        #expect(older.itemID == newer.itemID)
        #expect(try older.fromServer().open(secrets: fixture.secrets, chain: fixture.chain) == Data("old".utf8))
        #expect(older.version < newer.version)
        #expect(older.version.encoded.lexicographicallyPrecedes(newer.version.encoded))
    }

    @Test("Item ids are HMAC-SHA256 of the identity under the group's id key: equal for the same item on every member")
    func itemIDs() throws {
        let fixture = try SyncGroupFixture()
        let copy = try GroupSecrets(serialized: fixture.secrets.serialized)
        let identity = Data("genp|service|account".utf8)
        #expect(fixture.secrets.itemID(for: identity) == copy.itemID(for: identity))
        #expect(fixture.secrets.itemID(for: identity).count == 32)
        #expect(fixture.secrets.itemID(for: identity) != GroupSecrets.new().itemID(for: identity))
        #expect(fixture.secrets.itemID(for: identity) != fixture.secrets.itemID(for: identity + [0]))
    }

    @Test("A record signed by a device that is not a member is rejected, even with the group key")
    func nonMemberRejected() throws {
        var fixture = try SyncGroupFixture()
        let outsider = DeviceIdentity.generate(name: "outsider")
        let record = try fixture.record(content, by: outsider)
        #expect(rejection { _ = try record.fromServer().open(secrets: fixture.secrets, chain: fixture.chain) }
                == .unknownAuthor(.record, epoch: 0))
        // The founder's record with the signature replaced by the outsider's.
        let genuine = try fixture.record(content, by: fixture.founder)
        let body = genuine.encoded.dropLast(64)
        let forged = body + (try outsider.signature(for: Data(body)))
        #expect(rejection { _ = try genuine.fromServer(forged).open(secrets: fixture.secrets, chain: fixture.chain) }
                == .badSignature(.record))
    }

    /// Requirement "a removed member cannot inject a wrong secret": the removal roster vouches
    /// for exactly the removed device's records that stay valid; every other record of it is
    /// rejected, also one it signs afterwards with the old epoch's key and its own signing key.
    @Test("A removed member's vouched records stay valid; any other record of it, old or forged after, is rejected")
    func removedMemberVouchedRecords() throws {
        var fixture = try SyncGroupFixture()
        let member = DeviceIdentity.generate(name: "laptop")
        try fixture.add(member)
        let memberSecrets = fixture.secrets
        let vouched = try fixture.record(content, by: member, item: "kept", time: 5_000, counter: 5)
        let superseded = try fixture.record(content, by: member, item: "other", time: 4_000, counter: 4)
        try fixture.remove(member.id, vouching: [vouched])
        #expect(try vouched.fromServer().open(secrets: fixture.secrets, chain: fixture.chain) == content)
        #expect(rejection { _ = try superseded.fromServer().open(secrets: fixture.secrets, chain: fixture.chain) }
                == .removedAuthorNotVouched)
        // Forged after the removal under the old epoch's key: a low counter, a later time, any
        // item; and another content under the very item and version that stay valid.
        let wrongSecret = Data("a wrong secret".utf8)
        for forged in [
            try fixture.record(wrongSecret, by: member, item: "kept", time: 9_999_999, counter: 1, secrets: memberSecrets),
            try fixture.record(wrongSecret, by: member, item: "any", time: 9_999_999, counter: 2, secrets: memberSecrets),
            try fixture.record(wrongSecret, by: member, item: "kept", time: 5_000, counter: 5, secrets: memberSecrets),
        ] {
            #expect(forged.epoch == 1)
            #expect(rejection { _ = try forged.fromServer().open(secrets: fixture.secrets, chain: fixture.chain) }
                    == .removedAuthorNotVouched)
        }
        // The new epoch's records do not open with what the removed member holds.
        let fresh = try fixture.record(content, by: fixture.founder)
        #expect(fresh.epoch == 2)
        #expect(rejection { _ = try fresh.fromServer().open(secrets: memberSecrets, chain: fixture.chain) }
                == .missingEpochKey(2))
        #expect(fixture.secrets.key(epoch: 2) != memberSecrets.key(epoch: 1))
    }

    @Test("A record of an epoch whose roster the reader does not know yet is rejected, to retry later")
    func unknownEpoch() throws {
        var fixture = try SyncGroupFixture()
        let before = fixture.chain
        try fixture.add(DeviceIdentity.generate(name: "phone"))
        let record = try fixture.record(content, by: fixture.founder)
        #expect(rejection { _ = try record.fromServer().open(secrets: fixture.secrets, chain: before) } == .unknownEpoch(1))
    }

    /// A reader waits for the key of a later epoch only for a record a member signed under a
    /// roster it knows: one injected with a far-future epoch and no valid signature stalled
    /// every later record when the epoch was believed before the signature.
    @Test("Before waiting for a later epoch's key, a record is authenticated: a real one passes, a forged epoch is rejected")
    func authenticatedBeforeWaitingForAKey() throws {
        var fixture = try SyncGroupFixture()
        let readerSecrets = fixture.secrets
        let removed = DeviceIdentity.generate(name: "old phone")
        try fixture.add(removed)
        try fixture.remove(removed.id)
        let later = try fixture.record(content, by: fixture.founder)
        #expect(later.epoch > readerSecrets.currentEpoch)
        // A member's record under a roster the reader knows: authentic, to wait for its key.
        try later.fromServer().authenticate(chain: fixture.chain)
        #expect(rejection { _ = try later.fromServer().open(secrets: readerSecrets, chain: fixture.chain) }
                == .missingEpochKey(later.epoch))
        // The same record claiming a far-future epoch: no roster has it, so it is rejected.
        // The documented layout: magic 4, format 1, group 16, item 32, version 32, then the
        // epoch, 8 bytes big-endian.
        var forged = later.encoded
        let epochOffset = forged.startIndex + 4 + 1 + 16 + 32 + 32
        #expect(forged[epochOffset..<epochOffset + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } == later.epoch)
        let farFuture: UInt64 = 1 << 40
        forged.replaceSubrange(epochOffset..<epochOffset + 8, with: (0..<8).reversed().map { UInt8(truncatingIfNeeded: farFuture >> ($0 * 8)) })
        let claimed = try SealedRecord(encoded: forged, serverItemID: later.itemID, serverVersion: later.version.encoded)
        #expect(claimed.epoch == 1 << 40)
        #expect(rejection { try claimed.authenticate(chain: fixture.chain) } == .unknownEpoch(1 << 40))
    }

    @Test("A record of another group is rejected")
    func wrongGroup() throws {
        var fixture = try SyncGroupFixture()
        let other = try SyncGroupFixture()
        let record = try fixture.record(content, by: fixture.founder)
        #expect(rejection { _ = try record.fromServer().open(secrets: other.secrets, chain: other.chain) }
                == .wrongGroup(.record))
    }

    @Test("openssl verifies a record's signature over the documented signed bytes with the author's PEM public key")
    func signatureVerifiedByOpenssl() throws {
        var fixture = try SyncGroupFixture()
        let record = try fixture.record(content, by: fixture.founder)
        let folder = TestScratch.folder("sync-openssl")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("author.pem")
        let signature = folder.appendingPathComponent("signature.der")
        let body = folder.appendingPathComponent("body")
        try fixture.founder.publicIdentity.signingKey.pemRepresentation.write(to: key, atomically: true, encoding: .utf8)
        try P256.Signing.ECDSASignature(rawRepresentation: record.encoded.suffix(64)).derRepresentation.write(to: signature)
        let openssl = ProgramProcess(executable: URL(fileURLWithPath: "/usr/bin/openssl"))
        let arguments = ["dgst", "-sha256", "-verify", key.path, "-signature", signature.path, body.path]

        try Data(record.encoded.dropLast(64)).write(to: body)
        let verified = try openssl.run(arguments, dataHome: folder)
        #expect(verified.status == 0 && verified.output.contains("Verified OK"), "\(verified.errors)")

        try flipped(Data(record.encoded.dropLast(64)), at: 100).write(to: body)
        let refused = try openssl.run(arguments, dataHome: folder)
        #expect(refused.status != 0)
    }

    @Test("The content reopens with AES-GCM directly from the documented layout: header as associated data, nonce‖ciphertext‖tag")
    func aeadOpensFromDocumentedLayout() throws {
        var fixture = try SyncGroupFixture()
        let record = try fixture.record(content, by: fixture.founder, tombstone: true)
        let bytes = record.encoded
        let header = bytes.prefix(126)
        let length = bytes[126..<130].reduce(0) { $0 << 8 | Int($1) }
        #expect(130 + length + 64 == bytes.count)
        #expect(bytes[4] == 2) // the format
        #expect(bytes[93] == 1) // the tombstone flag
        #expect(bytes[94..<126] == fixture.chain.roster(epoch: 0)?.hash) // the roster head
        let box = try AES.GCM.SealedBox(combined: bytes[130..<(130 + length)])
        let key = try #require(fixture.secrets.key(epoch: 0))
        #expect(try AES.GCM.open(box, using: key, authenticating: header) == content)
        #expect(throws: (any Error).self) { try AES.GCM.open(box, using: key, authenticating: flipped(Data(header), at: 93)) }
        #expect(throws: (any Error).self) { try AES.GCM.open(box, using: key, authenticating: flipped(Data(header), at: 100)) }
    }

    @Test("Sealing refuses an author that is not the version's device and an item id that is not 32 bytes")
    func sealChecksArguments() throws {
        let fixture = try SyncGroupFixture()
        let other = DeviceID.random()
        #expect(throws: MembershipError.authorNotVersionDevice) {
            _ = try SealedRecord.seal(content: content, itemID: Data(count: 32),
                                      version: RecordVersion(time: 1, device: other, counter: 1), isTombstone: false,
                                      group: fixture.group, secrets: fixture.secrets,
                                      rosterHead: fixture.chain.current.hash, author: fixture.founder)
        }
        #expect(throws: MembershipError.badItemID) {
            _ = try SealedRecord.seal(content: content, itemID: Data(count: 31),
                                      version: RecordVersion(time: 1, device: fixture.founder.id, counter: 1),
                                      isTombstone: false, group: fixture.group, secrets: fixture.secrets,
                                      rosterHead: fixture.chain.current.hash, author: fixture.founder)
        }
        #expect(throws: MembershipError.badRosterHead) {
            _ = try SealedRecord.seal(content: content, itemID: Data(count: 32),
                                      version: RecordVersion(time: 1, device: fixture.founder.id, counter: 1),
                                      isTombstone: false, group: fixture.group, secrets: fixture.secrets,
                                      rosterHead: Data(count: 31), author: fixture.founder)
        }
    }
}
