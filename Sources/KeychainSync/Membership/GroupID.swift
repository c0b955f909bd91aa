import Foundation

/// A sync group: 16 random bytes made by the founder at setup.
package struct GroupID: RandomIdentifier {
    package let bytes: Data

    package init(checked bytes: Data) {
        self.bytes = bytes
    }

    package var description: String { hex }
}
