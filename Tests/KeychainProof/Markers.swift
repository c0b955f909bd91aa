import Foundation
import TestSupport

/// Random markers to store in items and then look for where they must not be: files at
/// rest, logs, error messages, descriptions.
///
/// Each is `Mk` and 14 random letters and digits. A search matches any 8 bytes of a marker's
/// start, so that a marker cut short or split across a page still shows.
public struct Markers {
    public private(set) var all: [String] = []
    private var prefixes: Set<UInt64> = []
    private var generator: SeededGenerator

    public init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    public mutating func make() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let marker = "Mk" + String((0..<14).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        all.append(marker)
        prefixes.insert(Self.word(Array(marker.utf8), at: 0))
        return marker
    }

    /// The markers found in `bytes` (by their first 8 bytes).
    public func found(in bytes: Data) -> [String] {
        let bytes = [UInt8](bytes)
        guard bytes.count >= 8 else { return [] }
        var hits: [String] = []
        for offset in 0...(bytes.count - 8) where bytes[offset] == UInt8(ascii: "M") && bytes[offset + 1] == UInt8(ascii: "k") {
            let word = Self.word(bytes, at: offset)
            if prefixes.contains(word) {
                hits.append(String(decoding: bytes[offset..<min(offset + 16, bytes.count)], as: UTF8.self))
            }
        }
        return hits
    }

    public func found(in text: String) -> [String] { found(in: Data(text.utf8)) }

    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
    }
}
