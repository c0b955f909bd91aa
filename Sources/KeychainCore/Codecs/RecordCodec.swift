import Foundation

/// The byte form of a record's attributes before sealing: a version byte, then for each
/// attribute its code, a type tag and a length-prefixed payload. Decoding checks every
/// bound, so damaged input is errSecDecode, never a crash.
package enum RecordCodec {
    static let version: UInt8 = 1

    fileprivate enum Tag: UInt8 {
        case string = 0x73, data = 0x64, number = 0x6E, bool = 0x62, date = 0x74
    }

    package static func encode(_ attributes: [String: AttributeValue]) -> Data {
        let sorted = attributes.sorted { $0.key < $1.key }
        let count = sorted.reduce(1) { count, entry in
            let payload = switch entry.value {
            case .string(let string): string.utf8.count
            case .data(let data): data.count
            case .number, .date: 8
            case .bool: 1
            }
            return count + 1 + entry.key.utf8.count + 1 + 4 + payload
        }
        return ByteWriter.data(count: count) { writer in
            writer.write(byte: version)
            for (code, value) in sorted {
                writer.write(byte: UInt8(truncatingIfNeeded: code.utf8.count))
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

    package static func decode(_ bytes: Data) throws(KeychainError) -> [String: AttributeValue] {
        var reader = ByteReader(bytes: [UInt8](bytes))
        guard try reader.byte() == version else { throw .decode }
        var attributes: [String: AttributeValue] = [:]
        while !reader.isAtEnd {
            let code = String(decoding: try reader.take(Int(try reader.byte())), as: UTF8.self)
            guard let tag = Tag(rawValue: try reader.byte()) else { throw .decode }
            let payload = try reader.take(try reader.length())
            attributes[code] = switch tag {
            case .string: .string(String(decoding: payload, as: UTF8.self))
            case .data: .data(Data(payload))
            case .number: .number(try integer(payload))
            case .bool: .bool(payload.first == 1)
            case .date: .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: try integer(payload)))))
            }
        }
        return attributes
    }

    private static func integer(_ payload: ArraySlice<UInt8>) throws(KeychainError) -> Int64 {
        guard payload.count == 8 else { throw .decode }
        return Int64(bitPattern: payload.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }
}

extension ByteWriter {
    /// A payload's type tag and 4-byte big-endian length.
    fileprivate mutating func write(tag: RecordCodec.Tag, length: Int) {
        write(byte: tag.rawValue)
        write(bigEndian: UInt32(length))
    }
}
