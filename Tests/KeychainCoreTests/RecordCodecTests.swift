import Foundation
@testable import KeychainCore
import Testing

/// The record codec, the byte form of a record's attributes inside its sealed box: decode
/// reads back exactly what encode wrote, encode refuses what decode could not read, and
/// damaged bytes are errSecDecode, never a crash or a value the encoder never wrote.
@Suite struct RecordCodecTests {
    /// One attribute of each kind the format has.
    static let attributes: [String: AttributeValue] = [
        "acct": .string("alice"),
        "cdat": .date(Date(timeIntervalSinceReferenceDate: 800_000_000.25)),
        "gena": .data(Data([0, 0xFF, 0x80])),
        "invi": .bool(true),
        "port": .number(-443),
        "svce": .string("exämple.com"),
    ]

    /// The codes in the order the encoder writes them.
    static let orderedCodes = attributes.keys.sorted()

    @Test("decode(encode(attributes)) gives the attributes back, every kind of value")
    func roundTrip() throws {
        #expect(try RecordCodec.decode(RecordCodec.encode(Self.attributes)) == Self.attributes)
        #expect(try RecordCodec.decode(RecordCodec.encode([:])) == [:])
    }

    /// The documented layout, written out by hand rather than by the code under test.
    @Test("the byte form is the documented one: version, then code, tag, 4-byte length and payload")
    func layoutIsTheDocumentedOne() throws {
        let encoded = try RecordCodec.encode(["acct": .string("al"), "invi": .bool(false), "port": .number(1)])
        let expected: [UInt8] = [1]
            + [4] + Array("acct".utf8) + [0x73, 0, 0, 0, 2] + Array("al".utf8)
            + [4] + Array("invi".utf8) + [0x62, 0, 0, 0, 1, 0]
            + [4] + Array("port".utf8) + [0x6E, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 1]
        #expect([UInt8](encoded) == expected)
    }

    /// The form has no count of its own (the sealed box, or an archive's length, frames it),
    /// so a cut between two attributes is the attributes before it; any other cut, and the
    /// empty input, is errSecDecode.
    @Test("every prefix of an encoding is errSecDecode, or, cut between attributes, the attributes before the cut")
    func everyPrefixIsRejectedOrIsTheAttributesBeforeTheCut() throws {
        let encoded = try RecordCodec.encode(Self.attributes)
        // The encoding of the first k attributes is a prefix of the whole: the boundaries.
        var boundaries: [Int: [String: AttributeValue]] = [:]
        for count in 0...Self.orderedCodes.count {
            let first = Self.attributes.filter { Self.orderedCodes.prefix(count).contains($0.key) }
            let prefix = try RecordCodec.encode(first)
            #expect(encoded.starts(with: prefix))
            boundaries[prefix.count] = first
        }
        for length in 0..<encoded.count {
            let prefix = encoded.prefix(length)
            if let before = boundaries[length] {
                #expect(try RecordCodec.decode(prefix) == before, "cut at \(length)")
            } else {
                #expect(throws: KeychainError.decode, "cut at \(length)") { try RecordCodec.decode(prefix) }
            }
        }
    }

    /// Hand-made records: a version byte, then one attribute `x` with `tag` and `payload`.
    static func record(tag: UInt8, payload: [UInt8], code: [UInt8] = Array("x".utf8)) -> Data {
        let length = UInt32(payload.count)
        return Data([1, UInt8(code.count)] + code + [tag] + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + payload)
    }

    @Test("a bool is one byte, 0 or 1: any other length or value is errSecDecode")
    func boolIsStrict() throws {
        #expect(try RecordCodec.decode(Self.record(tag: 0x62, payload: [1])) == ["x": .bool(true)])
        #expect(try RecordCodec.decode(Self.record(tag: 0x62, payload: [0])) == ["x": .bool(false)])
        for payload: [UInt8] in [[], [2], [0xFF], [1, 0], [0, 1]] {
            #expect(throws: KeychainError.decode, "\(payload)") { try RecordCodec.decode(Self.record(tag: 0x62, payload: payload)) }
        }
    }

    @Test("a number or a date is 8 bytes: any other length is errSecDecode")
    func numbersAndDatesAreEightBytes() throws {
        for tag: UInt8 in [0x6E, 0x74] {
            for count in [0, 1, 7, 9] {
                #expect(throws: KeychainError.decode) { try RecordCodec.decode(Self.record(tag: tag, payload: Array(repeating: 0, count: count))) }
            }
        }
    }

    @Test("text that is not UTF-8, in a code or a string, is errSecDecode rather than replaced")
    func invalidUTF8IsRejected() throws {
        #expect(throws: KeychainError.decode) { try RecordCodec.decode(Self.record(tag: 0x73, payload: [0xC3])) }
        #expect(throws: KeychainError.decode) { try RecordCodec.decode(Self.record(tag: 0x73, payload: [0x61], code: [0xFF, 0x61])) }
    }

    @Test("a code twice, or codes out of the encoder's order, is errSecDecode")
    func codesAreInOrderAndOnce() throws {
        let a = Self.record(tag: 0x73, payload: [0x31], code: Array("a".utf8)).dropFirst()
        let b = Self.record(tag: 0x73, payload: [0x32], code: Array("b".utf8)).dropFirst()
        #expect(try RecordCodec.decode(Data([1]) + a + b) == ["a": .string("1"), "b": .string("2")])
        #expect(throws: KeychainError.decode) { try RecordCodec.decode(Data([1]) + b + a) }
        #expect(throws: KeychainError.decode) { try RecordCodec.decode(Data([1]) + a + a) }
    }

    @Test("an unknown version or tag, or a length past the end, is errSecDecode")
    func unknownVersionTagOrLengthIsRejected() throws {
        var wrongVersion = try RecordCodec.encode(["acct": .string("a")])
        wrongVersion[0] = 2
        #expect(throws: KeychainError.decode) { try RecordCodec.decode(wrongVersion) }
        #expect(throws: KeychainError.decode) { try RecordCodec.decode(Self.record(tag: 0x7A, payload: [])) }
        var long = Self.record(tag: 0x64, payload: [1, 2])
        long[long.count - 3] = 0xFF  // the length's last byte: far past the two bytes there are
        #expect(throws: KeychainError.decode) { try RecordCodec.decode(long) }
    }

    @Test("encode refuses a code longer than its length byte gives (errSecParam), and writes one of 255 bytes")
    func encodeRefusesWhatDecodeCannotRead() throws {
        let longest = String(repeating: "c", count: 255)
        #expect(try RecordCodec.decode(RecordCodec.encode([longest: .number(7)])) == [longest: .number(7)])
        #expect(throws: KeychainError.param("an attribute code is longer than 255 bytes")) {
            try RecordCodec.encode([longest + "c": .number(7)])
        }
    }
}
