import Foundation

/// The byte form of a record's attributes before sealing: a version byte, then for each
/// attribute its code, a type tag and a length-prefixed payload. Decoding checks every
/// bound, so damaged input is errSecDecode, never a crash.
enum RecordCodec {
    static let version: UInt8 = 1

    private enum Tag: UInt8 {
        case string = 0x73, data = 0x64, number = 0x6E, bool = 0x62, date = 0x74
    }

    static func encode(_ attributes: [String: AttributeValue]) -> Data {
        // One buffer, appended to in place: this runs on every add and update.
        var out: [UInt8] = [version]
        out.reserveCapacity(256)
        func append(_ tag: Tag, _ payload: some Collection<UInt8>) {
            out.append(tag.rawValue)
            withUnsafeBytes(of: UInt32(payload.count).bigEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: payload)
        }
        for (code, value) in attributes.sorted(by: { $0.key < $1.key }) {
            out.append(UInt8(truncatingIfNeeded: code.utf8.count))
            out.append(contentsOf: code.utf8)
            switch value {
            case .string(let string): append(.string, string.utf8)
            case .data(let data): append(.data, data)
            case .number(let number): append(.number, Attribute.bytes(of: number))
            case .bool(let flag): append(.bool, CollectionOfOne(flag ? 1 : 0))
            case .date(let date): append(.date, Attribute.bytes(of: date))
            }
        }
        return Data(out)
    }

    static func decode(_ bytes: Data) throws(KeychainError) -> [String: AttributeValue] {
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
