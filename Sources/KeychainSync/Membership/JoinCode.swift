import Crypto
import Foundation

/// The short code both the joining device and the approving member show for a join request:
/// 10 Crockford base32 characters (50 bits) of SHA-256(genesis hash ‖ the joiner's encoded
/// public identity), printed `XXXXX-XXXXX`. The user compares them, or types the joiner's code
/// on the approver. Parsing accepts lower case and a missing dash, and reads I and L as 1 and
/// O as 0.
package struct JoinCode: Hashable, Sendable, CustomStringConvertible {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
    private static let symbolCount = 10

    /// The code's 50 bits.
    private let value: UInt64

    init(genesisHash: Data, publicIdentity: Data) {
        let digest = Array(SHA256.hash(data: genesisHash + publicIdentity))
        value = digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } >> 14
    }

    package init?(parsing text: String) {
        var symbols = Array(text.trimmingCharacters(in: .whitespaces).uppercased().utf8)
        if symbols.count == Self.symbolCount + 1, symbols[Self.symbolCount / 2] == UInt8(ascii: "-") {
            symbols.remove(at: Self.symbolCount / 2)
        }
        guard symbols.count == Self.symbolCount else { return nil }
        var value: UInt64 = 0
        for symbol in symbols {
            let canonical = switch symbol {
            case UInt8(ascii: "I"), UInt8(ascii: "L"): UInt8(ascii: "1")
            case UInt8(ascii: "O"): UInt8(ascii: "0")
            default: symbol
            }
            guard let digit = Self.alphabet.firstIndex(of: canonical) else { return nil }
            value = value << 5 | UInt64(digit)
        }
        self.value = value
    }

    package var description: String {
        let symbols = (0..<Self.symbolCount).map { index in
            Self.alphabet[Int(value >> UInt64(5 * (Self.symbolCount - 1 - index)) & 31)]
        }
        return String(decoding: symbols.prefix(5), as: UTF8.self) + "-" + String(decoding: symbols.suffix(5), as: UTF8.self)
    }
}
