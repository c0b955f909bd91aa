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
    /// The latest time a version may carry: 2^62 milliseconds, some 146 million years. A later
    /// one is malformed, so that the version following any accepted one (``nextTime``) is
    /// always there, whatever a member (or its clock) wrote.
    package static let maximumTime: UInt64 = 1 << 62

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
        guard time <= Self.maximumTime else { throw .malformed(.version) }
        device = try DeviceID(bytes: reader.fixed(DeviceID.count), kind: .version)
        counter = try reader.uint64()
        try reader.end()
    }

    /// The earliest time of a version that orders after this one's time, never past
    /// ``maximumTime`` (where the device and counter order the versions of one time).
    package var nextTime: UInt64 { time < Self.maximumTime ? time + 1 : Self.maximumTime }

    package static func < (left: RecordVersion, right: RecordVersion) -> Bool {
        (left.time, left.device, left.counter) < (right.time, right.device, right.counter)
    }
}
