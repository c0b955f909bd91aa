import Foundation

/// A value of a stored record, by SQLite's serial types.
public enum StoredValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var text: String? { if case .text(let text) = self { text } else { nil } }
    public var blob: [UInt8]? { if case .blob(let blob) = self { blob } else { nil } }
}

/// One row as one page version holds it: the cell's row id and its record's values.
public struct StoredRecord: Sendable {
    public let rowID: Int64
    public let values: [StoredValue]
    public let version: PageVersion
    /// Whether the payload ran on in overflow pages that could not all be read: the last
    /// values are then missing.
    public let truncated: Bool
}

/// The records of SQLite's table b-tree leaf pages (file format, sections 1.6 and 2.1):
/// every cell of a leaf page version, with its overflow chain, decoded into values. Every
/// bound is checked: a page that is not a table leaf, or is damaged, yields what it can.
public enum TableLeafRecords {
    static let tableLeaf: UInt8 = 0x0D

    /// The records of every table leaf page version.
    public static func all(in pages: PageVersions) -> [StoredRecord] {
        pages.versions.flatMap { records(in: $0, pages: pages) }
    }

    public static func records(in version: PageVersion, pages: PageVersions) -> [StoredRecord] {
        let bytes = version.bytes
        let header = version.page == 1 ? 100 : 0
        guard bytes.count >= header + 8, bytes[header] == tableLeaf else { return [] }
        let cells = Int(bytes[header + 3]) << 8 | Int(bytes[header + 4])
        var records: [StoredRecord] = []
        for cell in 0..<cells {
            let pointerAt = header + 8 + 2 * cell
            guard pointerAt + 2 <= bytes.count else { break }
            let start = Int(bytes[pointerAt]) << 8 | Int(bytes[pointerAt + 1])
            if let record = record(at: start, in: version, pages: pages) { records.append(record) }
        }
        return records
    }

    static func record(at start: Int, in version: PageVersion, pages: PageVersions) -> StoredRecord? {
        let bytes = version.bytes
        guard start < bytes.count, let (size, afterSize) = varint(bytes, at: start),
              let (rowID, offset) = varint(bytes, at: afterSize) else { return nil }
        guard size >= 0, size < 1 << 31 else { return nil }
        let payloadSize = Int(size)
        // How much of the payload is on this page (section 1.6, table b-tree leaf cells).
        let usable = pages.usableSize
        let maxLocal = usable - 35
        var local = payloadSize
        if payloadSize > maxLocal {
            let minLocal = (usable - 12) * 32 / 255 - 23
            let candidate = minLocal + (payloadSize - minLocal) % (usable - 4)
            local = candidate <= maxLocal ? candidate : minLocal
        }
        guard offset + local <= bytes.count else { return nil }
        var payload = Array(bytes[offset..<offset + local])
        var truncated = false
        if local < payloadSize {
            guard offset + local + 4 <= bytes.count else { return nil }
            var next = Int(FileBytes.bigEndian32(bytes, at: offset + local))
            var seen: Set<Int> = []
            while payload.count < payloadSize {
                guard next > 0, seen.insert(next).inserted,
                      let overflow = pages.continuation(page: next, of: version) else {
                    truncated = true
                    break
                }
                let content = overflow.bytes
                guard content.count >= 4, usable <= content.count else { truncated = true; break }
                let take = min(payloadSize - payload.count, usable - 4)
                payload += content[4..<4 + take]
                next = Int(FileBytes.bigEndian32(content, at: 0))
            }
        }
        guard let values = decode(payload) else { return nil }
        return StoredRecord(rowID: rowID, values: values, version: version, truncated: truncated)
    }

    /// A record: a header (its length, then one serial type per column), then the values.
    /// A record cut short by a missing overflow page yields the values that are whole.
    static func decode(_ payload: [UInt8]) -> [StoredValue]? {
        guard let (headerSize, afterSize) = varint(payload, at: 0), headerSize > 0,
              headerSize <= Int64(payload.count) else { return nil }
        var types: [Int64] = []
        var offset = afterSize
        while offset < Int(headerSize) {
            guard let (type, next) = varint(payload, at: offset) else { return nil }
            types.append(type)
            offset = next
        }
        guard offset == Int(headerSize) else { return nil }
        var values: [StoredValue] = []
        var body = Int(headerSize)
        for type in types {
            let length: Int
            switch type {
            case 0, 8, 9: length = 0
            case 1, 2, 3, 4: length = Int(type)
            case 5: length = 6
            case 6, 7: length = 8
            case 10, 11: return nil
            default:
                guard type < 1 << 32 else { return nil }
                length = Int(type - (type % 2 == 0 ? 12 : 13)) / 2
            }
            guard body + length <= payload.count else { return values }
            let field = Array(payload[body..<body + length])
            body += length
            switch type {
            case 0: values.append(.null)
            case 8: values.append(.integer(0))
            case 9: values.append(.integer(1))
            case 1...6:
                // Big-endian two's complement of 1, 2, 3, 4, 6 or 8 bytes.
                var value = Int64(Int8(bitPattern: field[0]))
                for byte in field.dropFirst() { value = value << 8 | Int64(byte) }
                values.append(.integer(value))
            case 7:
                values.append(.real(Double(bitPattern: field.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })))
            default:
                values.append(type % 2 == 0 ? .blob(field) : .text(String(decoding: field, as: UTF8.self)))
            }
        }
        return values
    }

    /// SQLite's variable-length integer: up to 8 bytes of 7 bits, high bit first, then a
    /// ninth byte of 8 bits. The value and the offset after it.
    static func varint(_ bytes: [UInt8], at start: Int) -> (Int64, Int)? {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard start + index < bytes.count else { return nil }
            let byte = bytes[start + index]
            if index == 8 {
                value = value << 8 | UInt64(byte)
                return (Int64(bitPattern: value), start + 9)
            }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return (Int64(bitPattern: value), start + index + 1) }
        }
        return nil
    }
}
