import Foundation
import KeychainSync
import Testing
import TestSupport

/// Versions order records: the latest wins everywhere, and the server orders them as bytes.
@Suite("Record versions")
struct RecordVersionTests {
    @Test("Version encoding is 32 bytes that decode to the same version (contract: RecordVersion)")
    func roundTrip() throws {
        let version = RecordVersion(time: 1_700_000_000_123, device: .random(), counter: 42)
        #expect(version.encoded.count == 32)
        #expect(try RecordVersion(encoded: version.encoded) == version)
        #expect(rejection { _ = try RecordVersion(encoded: version.encoded.dropLast()) } == .malformed(.version))
        #expect(rejection { _ = try RecordVersion(encoded: version.encoded + [0]) } == .malformed(.version))
    }

    /// A member-signed version with a time of 2^64 - 1 made every member that later edited
    /// the item overflow `time + 1` and crash its agent on each push.
    @Test("A version time past the bound (2^62 ms) is malformed, and the time that follows an accepted version never overflows")
    func timesAreBounded() throws {
        let device = DeviceID.random()
        for time in [RecordVersion.maximumTime + 1, UInt64.max - 1, UInt64.max] {
            let version = RecordVersion(time: time, device: device, counter: 1)
            #expect(rejection { _ = try RecordVersion(encoded: version.encoded) } == .malformed(.version), "\(time)")
        }
        let last = try RecordVersion(encoded: RecordVersion(time: RecordVersion.maximumTime, device: device, counter: 1).encoded)
        #expect(last.nextTime == RecordVersion.maximumTime)
        #expect(RecordVersion(time: 41, device: device, counter: 1).nextTime == 42)
        // Even a version made here past the bound (never decoded) has a following time.
        #expect(RecordVersion(time: .max, device: device, counter: 1).nextTime == RecordVersion.maximumTime)
    }

    @Test("Byte-wise order of encodings (PostgreSQL bytea) equals Comparable: time, then device, then counter")
    func byteOrderEqualsComparable() {
        var random = SeededGenerator(seed: 0x5EC5)
        let devices = (0..<3).map { _ in DeviceID.random() }
        // Few distinct times, devices and counters, so that ties on the leading fields are common.
        func next() -> RecordVersion {
            let time = [0, 1, 255, 256, UInt64.max - 1, UInt64.max, 1_700_000_000_000][Int(random.next() % 7)]
            return RecordVersion(time: time, device: devices[Int(random.next() % 3)],
                                 counter: [0, 1, 255, 256, UInt64.max][Int(random.next() % 5)])
        }
        for _ in 0..<5_000 {
            let (left, right) = (next(), next())
            #expect((left < right) == left.encoded.lexicographicallyPrecedes(right.encoded))
            #expect((left == right) == (left.encoded == right.encoded))
            let expected = (left.time, left.device, left.counter) < (right.time, right.device, right.counter)
            #expect((left < right) == expected)
        }
    }

    @Test("Device ids: 8 lowercase hex digits in lists, full hex parsed back, anything else refused")
    func deviceIDHex() throws {
        let device = DeviceID.random()
        #expect(device.shortHex.count == 8 && device.hex.hasPrefix(device.shortHex))
        #expect(device.shortHex == device.shortHex.lowercased())
        #expect(DeviceID(hex: device.hex) == device)
        #expect(DeviceID(hex: device.hex.uppercased()) == device)
        #expect(DeviceID(hex: device.shortHex) == nil)
        #expect(DeviceID(hex: String(device.hex.dropLast()) + "g") == nil)
        let group = GroupID.random()
        #expect(GroupID(hex: group.hex) == group)
        #expect(GroupID(hex: "") == nil)
    }
}
