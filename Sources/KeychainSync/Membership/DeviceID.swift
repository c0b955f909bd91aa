import Foundation
import KeychainCore

/// A device of a sync group: 16 random bytes made on the device. Lists show the first four
/// bytes as 8 lowercase hex digits (`shortHex`); the full 32 digits are accepted too.
package struct DeviceID: RandomIdentifier, Comparable {
    package let bytes: Data

    package init(checked bytes: Data) {
        self.bytes = bytes
    }

    package var shortHex: String { Hex.string(bytes.prefix(4)) }
    package var description: String { shortHex }

    package static func < (left: DeviceID, right: DeviceID) -> Bool {
        left.bytes.lexicographicallyPrecedes(right.bytes)
    }
}
