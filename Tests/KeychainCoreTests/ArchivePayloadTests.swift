import Foundation
@testable import KeychainCore
import Testing

/// The plaintext of a keychain archive: every field is framed by the item count or a
/// length, so any truncation of a payload, and any byte after its last item, is errSecDecode,
/// never a crash or fewer items.
@Suite struct ArchivePayloadTests {
    static let items = [
        KeychainArchive.Item(record: ItemRecord(itemClass: .genericPassword, attributes: [
            "acct": .string("alice"), "svce": .string("example.com"), "sync": .number(0),
        ]), secret: Data("secret".utf8)),
        KeychainArchive.Item(record: ItemRecord(itemClass: .internetPassword, attributes: [
            "acct": .string("bob"), "srvr": .string("example.org"), "port": .number(443),
        ]), secret: Data()),
    ]

    static func contents(_ items: [KeychainArchive.Item]) -> [[String: AttributeValue]] {
        items.map { $0.record.attributes.merging(["class": .string($0.record.itemClass.rawValue), "secret": .data($0.secret)]) { a, _ in a } }
    }

    @Test("decode(encode(items)) gives the items back, in order, with their classes and secrets")
    func roundTrip() throws {
        let decoded = try ArchivePayload.decode(ArchivePayload.encode(Self.items))
        #expect(Self.contents(decoded) == Self.contents(Self.items))
        #expect(try ArchivePayload.decode(ArchivePayload.encode([])).isEmpty)
    }

    /// The documented layout, written out by hand: count, then class, attributes and secret.
    @Test("the byte form is the documented one: count, then per item class, length and record, length and secret")
    func layoutIsTheDocumentedOne() throws {
        let item = KeychainArchive.Item(record: ItemRecord(itemClass: .genericPassword, attributes: [:]), secret: Data([7]))
        #expect(try ArchivePayload.encode([item]) == [0, 0, 0, 1] + Array("genp".utf8) + [0, 0, 0, 1, 1] + [0, 0, 0, 1, 7])
    }

    @Test("every prefix of a payload is errSecDecode")
    func everyPrefixIsRejected() throws {
        let payload = try ArchivePayload.encode(Self.items)
        for length in 0..<payload.count {
            #expect(throws: KeychainError.decode, "cut at \(length)") { try ArchivePayload.decode(Array(payload.prefix(length))) }
        }
    }

    @Test("a byte after the last item, or a count larger than the items there are, is errSecDecode")
    func trailingBytesAndLargeCountsAreRejected() throws {
        let payload = try ArchivePayload.encode(Self.items)
        #expect(throws: KeychainError.decode) { try ArchivePayload.decode(payload + [0]) }
        var counted = payload
        counted[0] = 0xFF  // four billion items claimed, two present: fails at the third
        #expect(throws: KeychainError.decode) { try ArchivePayload.decode(counted) }
    }

    @Test("an unknown class code is errSecDecode")
    func unknownClassIsRejected() throws {
        var payload = try ArchivePayload.encode(Array(Self.items.prefix(1)))
        payload[4] = UInt8(ascii: "x")
        #expect(throws: KeychainError.decode) { try ArchivePayload.decode(payload) }
    }
}
