import Foundation
import KeychainCore

/// One field of sync's binary messages, which are written with the core's ByteWriter. Integers
/// are big-endian; a `sized` field is a 4-byte big-endian length and then its bytes.
enum SyncField {
    case byte(UInt8)
    case uint32(UInt32)
    case uint64(UInt64)
    /// Bytes of a length the format fixes (ids, keys, hashes, signatures).
    case fixed(Data)
    /// Bytes of any length, after their length.
    case sized(Data)

    private var count: Int {
        switch self {
        case .byte: 1
        case .uint32: 4
        case .uint64: 8
        case .fixed(let data): data.count
        case .sized(let data): 4 + data.count
        }
    }

    /// The message of `kind`: its magic, its format (the current one unless a kind has moved
    /// on, see SealedRecord), then `fields`.
    static func message(_ kind: SyncMessageKind, format: UInt8 = SyncMessageKind.currentFormat,
                        _ fields: [SyncField]) -> Data {
        encode([.fixed(Data(kind.magic)), .byte(format)] + fields)
    }

    static func encode(_ fields: [SyncField]) -> Data {
        ByteWriter.data(count: fields.reduce(0) { $0 + $1.count }) { writer in
            for field in fields {
                switch field {
                case .byte(let value): writer.write(byte: value)
                case .uint32(let value): writer.write(bigEndian: value)
                case .uint64(let value): writer.write(bigEndian: Int64(bitPattern: value))
                case .fixed(let data): writer.write(data)
                case .sized(let data):
                    writer.write(bigEndian: UInt32(data.count))
                    writer.write(data)
                }
            }
        }
    }
}

/// Reads a message written with SyncField, front to back. Every read is bounds-checked by the
/// core's ByteReader; anything short, long or out of range is `.malformed(kind)`, never a trap.
struct SyncFieldReader {
    private var reader: ByteReader
    let kind: SyncMessageKind

    init(_ data: Data, kind: SyncMessageKind) {
        reader = ByteReader(bytes: Array(data))
        self.kind = kind
    }

    /// How many bytes have been read: where the signed part of a message ends.
    var offset: Int { reader.offset }

    /// Reads the magic and format byte of `kind`.
    mutating func header() throws(SyncRejection) {
        _ = try header(formats: SyncMessageKind.currentFormat...SyncMessageKind.currentFormat)
    }

    /// Reads the magic and format byte of `kind`, one of `formats`; returns the format.
    mutating func header(formats: ClosedRange<UInt8>) throws(SyncRejection) -> UInt8 {
        guard try Array(take(kind.magic.count)) == kind.magic else { throw .malformed(kind) }
        let format = try byte()
        guard formats.contains(format) else { throw .unknownFormat(kind, format) }
        return format
    }

    mutating func byte() throws(SyncRejection) -> UInt8 {
        do { return try reader.byte() } catch { throw .malformed(kind) }
    }

    mutating func uint32() throws(SyncRejection) -> UInt32 {
        try take(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func uint64() throws(SyncRejection) -> UInt64 {
        try take(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func fixed(_ count: Int) throws(SyncRejection) -> Data {
        Data(try take(count))
    }

    /// A sized field of at most `maximum` bytes (and never more than the message holds).
    mutating func sized(maximum: Int) throws(SyncRejection) -> Data {
        let count = Int(try uint32())
        guard count <= maximum else { throw .malformed(kind) }
        return try fixed(count)
    }

    /// A count of entries that each take at least `entrySize` bytes: bounded by what remains,
    /// so that no decoder reserves memory for entries the message cannot hold.
    mutating func count(entrySize: Int) throws(SyncRejection) -> Int {
        let count = Int(try uint32())
        guard count <= (reader.bytes.count - reader.offset) / max(entrySize, 1) else { throw .malformed(kind) }
        return count
    }

    /// Throws unless every byte was read.
    func end() throws(SyncRejection) {
        guard reader.isAtEnd else { throw .malformed(kind) }
    }

    private mutating func take(_ count: Int) throws(SyncRejection) -> ArraySlice<UInt8> {
        do { return try reader.take(count) } catch { throw .malformed(kind) }
    }
}
