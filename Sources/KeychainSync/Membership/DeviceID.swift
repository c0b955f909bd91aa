import Foundation
import KeychainCore

/// A device of a sync group: 16 random bytes made on the device. Lists show the first four
/// bytes as 8 lowercase hex digits (`shortHex`); the full 32 digits are accepted too.
package struct DeviceID: Hashable, Sendable, Comparable, CustomStringConvertible {
    static let count = 16

    package let bytes: Data

    package static func random() -> DeviceID {
        DeviceID(checked: Data((0..<count).map { _ in UInt8.random(in: .min ... .max) }))
    }

    private init(checked bytes: Data) {
        self.bytes = bytes
    }

    /// 16 bytes read from a message of `kind`.
    init(bytes: Data, kind: SyncMessageKind) throws(SyncRejection) {
        guard bytes.count == Self.count else { throw .malformed(kind) }
        self.init(checked: Data(bytes))
    }

    /// The device of 32 hex digits, in either case; nil for anything else.
    package init?(hex: String) {
        guard let bytes = Hex.bytes(hex), bytes.count == Self.count else { return nil }
        self.init(checked: bytes)
    }

    package var hex: String { Hex.string(bytes) }
    package var shortHex: String { Hex.string(bytes.prefix(4)) }
    package var description: String { shortHex }

    package static func < (left: DeviceID, right: DeviceID) -> Bool {
        left.bytes.lexicographicallyPrecedes(right.bytes)
    }
}
