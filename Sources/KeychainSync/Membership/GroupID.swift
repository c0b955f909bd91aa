import Foundation
import KeychainCore

/// A sync group: 16 random bytes made by the founder at setup.
package struct GroupID: Hashable, Sendable, CustomStringConvertible {
    static let count = 16

    package let bytes: Data

    package static func random() -> GroupID {
        GroupID(checked: Data((0..<count).map { _ in UInt8.random(in: .min ... .max) }))
    }

    private init(checked bytes: Data) {
        self.bytes = bytes
    }

    /// 16 bytes read from a message of `kind`.
    init(bytes: Data, kind: SyncMessageKind) throws(SyncRejection) {
        guard bytes.count == Self.count else { throw .malformed(kind) }
        self.init(checked: Data(bytes))
    }

    /// The group of 32 hex digits, in either case; nil for anything else.
    package init?(hex: String) {
        guard let bytes = Hex.bytes(hex), bytes.count == Self.count else { return nil }
        self.init(checked: bytes)
    }

    package var hex: String { Hex.string(bytes) }
    package var description: String { hex }
}
