import Foundation
import KeychainCore

/// 16 random bytes that name something of a sync group (the group, a device): made once,
/// shown and accepted as 32 hex digits, read from messages only at their exact length.
package protocol RandomIdentifier: Hashable, Sendable, CustomStringConvertible {
    var bytes: Data { get }
    /// Bytes known to be ``count`` long.
    init(checked bytes: Data)
}

extension RandomIdentifier {
    static var count: Int { 16 }

    package static func random() -> Self {
        Self(checked: Data((0..<count).map { _ in UInt8.random(in: .min ... .max) }))
    }

    /// ``count`` bytes read from a message of `kind`.
    init(bytes: Data, kind: SyncMessageKind) throws(SyncRejection) {
        guard bytes.count == Self.count else { throw .malformed(kind) }
        self.init(checked: Data(bytes))
    }

    /// The identifier of 32 hex digits, in either case; nil for anything else.
    package init?(hex: String) {
        guard let bytes = Hex.bytes(hex), bytes.count == Self.count else { return nil }
        self.init(checked: bytes)
    }

    package var hex: String { Hex.string(bytes) }
}
