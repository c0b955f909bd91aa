import Crypto
import Foundation

/// The code both the joining device and the approving member show for a join request:
/// 15 Crockford base32 characters (75 bits) of SHA-256(genesis hash ‖ the joiner's encoded
/// public identity), printed `XXXXX-XXXXX-XXXXX`. The user compares them, or types the
/// joiner's code on the approver. Parsing accepts lower case and missing dashes, and reads I
/// and L as 1 and O as 0.
///
/// Why 75 bits: a server sees the joiner's public identity, hence its code, and may offer the
/// approver a join request of its own instead. To pass, its identity (whose name it chooses
/// freely, one SHA-256 a try) must give the same code: about 2^50 tries for a 50-bit code,
/// hours of hashing on rented GPUs, within reach while a user walks to the other machine;
/// 2^75 tries are out of anyone's reach.
package struct JoinCode: Hashable, Sendable, CustomStringConvertible {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
    private static let symbolCount = 15
    private static let groupCount = 5

    /// The code's symbols, each a 5-bit digit.
    private let digits: [UInt8]

    init(genesisHash: Data, publicIdentity: Data) {
        let digest = Array(SHA256.hash(data: genesisHash + publicIdentity))
        digits = (0..<Self.symbolCount).map { index in
            // Bits 5·index ..< 5·index + 5 of the digest, most significant first.
            let bit = index * 5
            let pair = UInt16(digest[bit / 8]) << 8 | UInt16(digest[bit / 8 + 1])
            return UInt8(pair >> (11 - bit % 8) & 31)
        }
    }

    package init?(parsing text: String) {
        var symbols = Array(text.trimmingCharacters(in: .whitespaces).uppercased().utf8)
        // Dashes only between groups of five, each at most once.
        let dashed = Self.symbolCount + Self.symbolCount / Self.groupCount - 1
        if symbols.count == dashed {
            let boundaries = stride(from: Self.groupCount, to: dashed, by: Self.groupCount + 1)
            guard boundaries.allSatisfy({ symbols[$0] == UInt8(ascii: "-") }) else { return nil }
            symbols.removeAll { $0 == UInt8(ascii: "-") }
        }
        guard symbols.count == Self.symbolCount else { return nil }
        var digits: [UInt8] = []
        for symbol in symbols {
            let canonical = switch symbol {
            case UInt8(ascii: "I"), UInt8(ascii: "L"): UInt8(ascii: "1")
            case UInt8(ascii: "O"): UInt8(ascii: "0")
            default: symbol
            }
            guard let digit = Self.alphabet.firstIndex(of: canonical) else { return nil }
            digits.append(UInt8(digit))
        }
        self.digits = digits
    }

    package var description: String {
        let symbols = digits.map { Self.alphabet[Int($0)] }
        return stride(from: 0, to: Self.symbolCount, by: Self.groupCount)
            .map { String(decoding: symbols[$0..<$0 + Self.groupCount], as: UTF8.self) }
            .joined(separator: "-")
    }
}
