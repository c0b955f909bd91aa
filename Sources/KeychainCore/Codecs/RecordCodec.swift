import Foundation

/// The byte form of a record's attributes before sealing: a version byte, then for each
/// attribute its code (a length byte and UTF-8), a type tag and a payload after a 4-byte
/// big-endian length.
///
/// The form carries no count of its own: what frames it is the sealed box that holds it (or,
/// in an archive, the length before it), and both are authenticated. Decoding checks every
/// bound and accepts only what ``encode(_:)`` writes (codes in ascending order, each once,
/// valid UTF-8, a number or date of 8 bytes, a bool of one byte 0 or 1), so damaged input is
/// errSecDecode, never a crash or a value the encoder never wrote; and what it accepts,
/// encoded again, gives the same bytes.
package enum RecordCodec {
    static let version: UInt8 = 1

    fileprivate enum Tag: UInt8 {
        case string = 0x73, data = 0x64, number = 0x6E, bool = 0x62, date = 0x74
    }

    /// The longest code a length byte can give.
    static let longestCode = Int(UInt8.max)
    /// The longest payload a 4-byte length can give.
    static let longestPayload = Int(UInt32.max)

    /// The attributes in byte form, codes in ascending order. errSecParam for what
    /// ``decode(_:)`` could not read back: a code longer than 255 bytes, or a value longer
    /// than 4 GiB - 1.
    package static func encode(_ attributes: [String: AttributeValue]) throws(KeychainError) -> Data {
        let form = try Form(attributes)
        return ByteWriter.data(count: form.count, form.write)
    }

    /// The byte form of some attributes, checked and measured but not written yet: for a
    /// caller that writes it into a buffer of its own (a sealed record's padded plaintext).
    struct Form {
        private let sorted: [(key: String, value: AttributeValue)]
        /// How many bytes ``write(_:)`` writes.
        let count: Int

        /// errSecParam for what ``decode(_:)`` could not read back (see ``encode(_:)``).
        init(_ attributes: [String: AttributeValue]) throws(KeychainError) {
            sorted = attributes.sorted { $0.key < $1.key }
            var count = 1
            for (code, value) in sorted {
                guard code.utf8.count <= longestCode else {
                    throw .param("an attribute code is longer than \(longestCode) bytes")
                }
                let payload = switch value {
                case .string(let string): string.utf8.count
                case .data(let data): data.count
                case .number, .date: 8
                case .bool: 1
                }
                guard payload <= longestPayload else { throw .param("an attribute value is longer than 4 GiB") }
                count += 1 + code.utf8.count + 1 + 4 + payload
            }
            self.count = count
        }

        /// Writes the ``count`` bytes of the form.
        func write(_ writer: inout ByteWriter) {
            writer.write(byte: version)
            for (code, value) in sorted {
                writer.write(byte: UInt8(code.utf8.count))
                writer.write(code)
                switch value {
                case .string(let string):
                    writer.write(tag: .string, length: string.utf8.count)
                    writer.write(string)
                case .data(let data):
                    writer.write(tag: .data, length: data.count)
                    writer.write(data)
                case .number(let number):
                    writer.write(tag: .number, length: 8)
                    writer.write(bigEndian: number)
                case .bool(let flag):
                    writer.write(tag: .bool, length: 1)
                    writer.write(byte: flag ? 1 : 0)
                case .date(let date):
                    writer.write(tag: .date, length: 8)
                    writer.write(bigEndian: Int64(bitPattern: date.timeIntervalSinceReferenceDate.bitPattern))
                }
            }
        }
    }

    /// The attributes of a byte form ``encode(_:)`` wrote; errSecDecode for anything else.
    package static func decode(_ bytes: Data) throws(KeychainError) -> [String: AttributeValue] {
        var reader = ByteReader(bytes: [UInt8](bytes))
        guard try reader.byte() == version else { throw .decode }
        var attributes: [String: AttributeValue] = [:]
        var previous: String?
        while !reader.isAtEnd {
            let code = try text(try reader.take(Int(try reader.byte())))
            // In the encoder's order, each code once: a code twice would leave a value unread.
            guard previous.map({ $0 < code }) ?? true else { throw .decode }
            previous = code
            guard let tag = Tag(rawValue: try reader.byte()) else { throw .decode }
            let payload = try reader.take(try reader.length())
            let value: AttributeValue = switch tag {
            case .string: .string(try text(payload))
            case .data: .data(Data(payload))
            case .number: .number(try integer(payload))
            case .bool: .bool(try flag(payload))
            case .date: .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: try integer(payload)))))
            }
            attributes[code] = value
        }
        return attributes
    }

    private static func text(_ payload: ArraySlice<UInt8>) throws(KeychainError) -> String {
        guard let text = String(validating: payload, as: UTF8.self) else { throw .decode }
        return text
    }

    private static func integer(_ payload: ArraySlice<UInt8>) throws(KeychainError) -> Int64 {
        guard payload.count == 8 else { throw .decode }
        return Int64(bitPattern: payload.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    private static func flag(_ payload: ArraySlice<UInt8>) throws(KeychainError) -> Bool {
        guard payload.count == 1, let byte = payload.first, byte <= 1 else { throw .decode }
        return byte == 1
    }
}

extension ByteWriter {
    /// A payload's type tag and 4-byte big-endian length.
    fileprivate mutating func write(tag: RecordCodec.Tag, length: Int) {
        write(byte: tag.rawValue)
        write(bigEndian: UInt32(length))
    }
}
