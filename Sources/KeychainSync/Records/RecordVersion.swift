import Foundation

/// The version of a record: the latest wins, on every member and on the server.
///
/// Encoded in 32 bytes, all big-endian:
///
/// | bytes  | field                                          |
/// |--------|------------------------------------------------|
/// | 0..<8  | `time`, milliseconds since 1970                |
/// | 8..<24 | `device`, the author's DeviceID                |
/// | 24..<32| `counter`, the author's per-device counter      |
///
/// so that comparing encodings byte by byte (PostgreSQL's `bytea` order) gives the same order
/// as `Comparable`: time, then device, then counter.
package struct RecordVersion: Comparable, Hashable, Sendable {
    package static let encodedCount = 32

    package let time: UInt64
    package let device: DeviceID
    package let counter: UInt64

    package init(time: UInt64, device: DeviceID, counter: UInt64) {
        self.time = time
        self.device = device
        self.counter = counter
    }

    package var encoded: Data {
        SyncField.encode([.uint64(time), .fixed(device.bytes), .uint64(counter)])
    }

    package init(encoded: Data) throws(SyncRejection) {
        guard encoded.count == Self.encodedCount else { throw .malformed(.version) }
        var reader = SyncFieldReader(encoded, kind: .version)
        time = try reader.uint64()
        device = try DeviceID(bytes: reader.fixed(DeviceID.count), kind: .version)
        counter = try reader.uint64()
        try reader.end()
    }

    package static func < (left: RecordVersion, right: RecordVersion) -> Bool {
        (left.time, left.device, left.counter) < (right.time, right.device, right.counter)
    }
}
