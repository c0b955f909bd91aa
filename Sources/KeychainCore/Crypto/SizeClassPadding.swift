import Foundation

/// Pads what is sealed to a size class, so that the stored length of a secret or of a
/// record's attributes tells an attacker with the files only its class, not its length.
///
/// The classes are 32, 64, 128, ... 4096 bytes, then whole multiples of 4096. The padding is
/// ISO/IEC 7816-4's: one 0x80 byte, then zeros; so a plaintext of n bytes takes the smallest
/// class of at least n + 1 bytes. A 12-byte password and a 30-byte one both store 32 bytes.
enum SizeClassPadding {
    static let smallestClass = 32
    static let largestDoublingClass = 4096

    /// The size class of a plaintext of `count` bytes.
    static func paddedCount(_ count: Int) -> Int {
        let needed = count + 1
        if needed > largestDoublingClass {
            return (needed + largestDoublingClass - 1) / largestDoublingClass * largestDoublingClass
        }
        var size = smallestClass
        while size < needed { size *= 2 }
        return size
    }

    static func pad(_ plaintext: Data) -> Data {
        var padded = Data(capacity: paddedCount(plaintext.count))
        padded.append(plaintext)
        padded.append(0x80)
        padded.append(Data(count: paddedCount(plaintext.count) - plaintext.count - 1))
        return padded
    }

    /// The plaintext; errSecDecode when the padding is not well formed (only a bug can make
    /// that happen: what is unpadded was authenticated first).
    static func unpad(_ padded: Data) throws(KeychainError) -> Data {
        guard let marker = padded.lastIndex(where: { $0 != 0 }), padded[marker] == 0x80 else { throw .decode }
        return padded[padded.startIndex..<marker]
    }
}
