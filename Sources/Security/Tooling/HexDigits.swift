import Foundation
@_implementationOnly import KeychainCore

/// Bytes as hexadecimal digits and back, for this package's tools (keychainctl's `-X`
/// passwords and printed buffers): the core's one implementation, not a second. A type of
/// this module rather than an alias of the core's, so that its users need not load the core.
package enum HexDigits {
    /// `bytes` as two digits each, lowercase unless `uppercase`.
    package static func string(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
        Hex.string(bytes, uppercase: uppercase)
    }

    /// The bytes `text` spells in pairs of hexadecimal digits; nil if it has an odd count or
    /// another character.
    package static func bytes(_ text: some StringProtocol) -> Data? {
        Hex.bytes(text)
    }
}
