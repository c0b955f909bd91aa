// Triple DES (FIPS 46-3, SP 800-67) block decryption, for legacy PKCS#12 files only: see
// LegacyCBC.swift for why it is written here. Bit numbering follows FIPS 46-3: bit 1 is the
// most significant bit of a block.

/// DES-EDE3 (three keys) or DES-EDE2 (two keys, the third being the first) on 8-byte blocks.
struct TripleDES {
    static let blockByteCount = 8

    private let subkeys: [[UInt64]]

    /// `key` is 24 bytes (K1 K2 K3) or 16 bytes (K1 K2, with K3 = K1); nil for any other length.
    /// The parity bits are ignored, as every implementation does.
    init?(key: [UInt8]) {
        guard key.count == 24 || key.count == 16 else { return nil }
        let first = LegacyCBC.block(key, at: 0), second = LegacyCBC.block(key, at: 8)
        let third = key.count == 24 ? LegacyCBC.block(key, at: 16) : first
        subkeys = [first, second, third].map(DES.subkeys(for:))
    }

    /// P = D_K1(E_K2(D_K3(C))).
    func decrypt(block: UInt64) -> UInt64 {
        let afterThird = DES.crypt(block, subkeys: subkeys[2].reversed())
        let afterSecond = DES.crypt(afterThird, subkeys: subkeys[1])
        return DES.crypt(afterSecond, subkeys: subkeys[0].reversed())
    }

    /// C = E_K3(D_K2(E_K1(P))); only the tests use it, to check decryption against it.
    func encrypt(block: UInt64) -> UInt64 {
        let afterFirst = DES.crypt(block, subkeys: subkeys[0])
        let afterSecond = DES.crypt(afterFirst, subkeys: subkeys[1].reversed())
        return DES.crypt(afterSecond, subkeys: subkeys[2])
    }
}

/// Single DES, the building block of ``TripleDES``.
enum DES {
    /// The 16 round keys (48 bits each, right-aligned) for encryption; reversed, they decrypt.
    static func subkeys(for key: UInt64) -> [UInt64] {
        let permuted = permute(key, table: permutedChoice1, inputWidth: 64)
        var c = permuted >> 28, d = permuted & 0x0FFF_FFFF
        var keys: [UInt64] = []
        keys.reserveCapacity(16)
        for shift in shifts {
            c = rotateLeft28(c, by: shift)
            d = rotateLeft28(d, by: shift)
            keys.append(permute(c << 28 | d, table: permutedChoice2, inputWidth: 56))
        }
        return keys
    }

    /// The 16 Feistel rounds between the initial and final permutations, with `subkeys` in
    /// the order given (encryption order encrypts, reversed order decrypts).
    static func crypt<Keys: Sequence<UInt64>>(_ block: UInt64, subkeys: Keys) -> UInt64 {
        let permuted = permute(block, table: initialPermutation, inputWidth: 64)
        var left = permuted >> 32, right = permuted & 0xFFFF_FFFF
        for key in subkeys {
            (left, right) = (right, left ^ feistel(right, key))
        }
        return permute(right << 32 | left, table: finalPermutation, inputWidth: 64)
    }

    private static func feistel(_ half: UInt64, _ key: UInt64) -> UInt64 {
        let mixed = permute(half, table: expansion, inputWidth: 32) ^ key
        var substituted: UInt64 = 0
        for box in 0..<8 {
            let six = Int(mixed >> UInt64(42 - 6 * box) & 0x3F)
            let row = (six >> 4 & 2) | (six & 1), column = six >> 1 & 0xF
            substituted = substituted << 4 | UInt64(substitutionBoxes[box][row * 16 + column])
        }
        return permute(substituted, table: permutation, inputWidth: 32)
    }

    /// Output bit i (from the most significant) is input bit table[i], numbered from 1 at the
    /// most significant of `inputWidth` bits.
    private static func permute(_ input: UInt64, table: [UInt8], inputWidth: Int) -> UInt64 {
        var output: UInt64 = 0
        for position in table {
            output = output << 1 | (input >> UInt64(inputWidth - Int(position)) & 1)
        }
        return output
    }

    private static func rotateLeft28(_ value: UInt64, by count: Int) -> UInt64 {
        (value << UInt64(count) | value >> UInt64(28 - count)) & 0x0FFF_FFFF
    }

    private static let shifts = [1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1]

    private static let initialPermutation: [UInt8] = [
        58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4,
        62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8,
        57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3,
        61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7,
    ]

    private static let finalPermutation: [UInt8] = [
        40, 8, 48, 16, 56, 24, 64, 32, 39, 7, 47, 15, 55, 23, 63, 31,
        38, 6, 46, 14, 54, 22, 62, 30, 37, 5, 45, 13, 53, 21, 61, 29,
        36, 4, 44, 12, 52, 20, 60, 28, 35, 3, 43, 11, 51, 19, 59, 27,
        34, 2, 42, 10, 50, 18, 58, 26, 33, 1, 41, 9, 49, 17, 57, 25,
    ]

    private static let expansion: [UInt8] = [
        32, 1, 2, 3, 4, 5, 4, 5, 6, 7, 8, 9, 8, 9, 10, 11, 12, 13, 12, 13, 14, 15, 16, 17,
        16, 17, 18, 19, 20, 21, 20, 21, 22, 23, 24, 25, 24, 25, 26, 27, 28, 29, 28, 29, 30, 31, 32, 1,
    ]

    private static let permutation: [UInt8] = [
        16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10,
        2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4, 25,
    ]

    private static let permutedChoice1: [UInt8] = [
        57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18,
        10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
        63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22,
        14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4,
    ]

    private static let permutedChoice2: [UInt8] = [
        14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10, 23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
        41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48, 44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
    ]

    /// S1 to S8, each 4 rows of 16.
    private static let substitutionBoxes: [[UInt8]] = [
        [14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7,
         0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8,
         4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0,
         15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13],
        [15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10,
         3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5,
         0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15,
         13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9],
        [10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8,
         13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1,
         13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7,
         1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12],
        [7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15,
         13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9,
         10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4,
         3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14],
        [2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9,
         14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6,
         4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14,
         11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3],
        [12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11,
         10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8,
         9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6,
         4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13],
        [4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1,
         13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6,
         1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2,
         6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12],
        [13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7,
         1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2,
         7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8,
         2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11],
    ]
}
