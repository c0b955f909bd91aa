internal import Crypto
import Foundation

/// SHA-224 (FIPS 180-4, section 6.3): SHA-256 with its own initial values, cut to 28 bytes.
///
/// Written here because swift-crypto has no SHA-224 and Apple's algorithms name it (RSA
/// and ECDSA signatures, OAEP, ECIES' X9.63 key derivation). A `HashFunction`, so that
/// code written for swift-crypto's hashes takes it unchanged. Digests of public data only:
/// it makes no effort to run in constant time or to clear its state.
struct SHA224: HashFunction {
    static let blockByteCount = 64
    static let byteCount = 28

    /// The hash value H(0) for SHA-224 (FIPS 180-4, 5.3.2).
    private var state: [UInt32] = [
        0xC105_9ED8, 0x367C_D507, 0x3070_DD17, 0xF70E_5939, 0xFFC0_0B31, 0x6858_1511, 0x64F9_8FA7, 0xBEFA_4FA4,
    ]
    /// Bytes not yet compressed: less than one block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    init() {}

    mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        length &+= UInt64(bufferPointer.count)
        pending.append(contentsOf: bufferPointer)
        var start = 0
        while pending.count - start >= Self.blockByteCount {
            compress(pending[start..<(start + Self.blockByteCount)])
            start += Self.blockByteCount
        }
        pending.removeFirst(start)
    }

    func finalize() -> SHA224Digest {
        var copy = self
        let bitLength = length &* 8
        var padding: [UInt8] = [0x80]
        padding += [UInt8](repeating: 0, count: (Self.blockByteCount + 56 - (pending.count + 1) % Self.blockByteCount) % Self.blockByteCount)
        padding += withUnsafeBytes(of: bitLength.bigEndian) { Array($0) }
        copy.pending += padding
        var start = 0
        while start < copy.pending.count {
            copy.compress(copy.pending[start..<(start + Self.blockByteCount)])
            start += Self.blockByteCount
        }
        let bytes = copy.state.prefix(7).flatMap { word in withUnsafeBytes(of: word.bigEndian) { Array($0) } }
        return SHA224Digest(bytes: bytes)
    }

    /// The SHA-256 compression function on one 64-byte block (FIPS 180-4, 6.2.2).
    private mutating func compress(_ block: ArraySlice<UInt8>) {
        var w = [UInt32](repeating: 0, count: 64)
        for t in 0..<16 {
            let base = block.startIndex + 4 * t
            w[t] = UInt32(block[base]) << 24 | UInt32(block[base + 1]) << 16 | UInt32(block[base + 2]) << 8 | UInt32(block[base + 3])
        }
        for t in 16..<64 {
            let s0 = rotate(w[t - 15], 7) ^ rotate(w[t - 15], 18) ^ (w[t - 15] >> 3)
            let s1 = rotate(w[t - 2], 17) ^ rotate(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var a = state[0], b = state[1], c = state[2], d = state[3]
        var e = state[4], f = state[5], g = state[6], h = state[7]
        for t in 0..<64 {
            let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choose = (e & f) ^ (~e & g)
            let t1 = h &+ sum1 &+ choose &+ Self.k[t] &+ w[t]
            let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = sum0 &+ majority
            h = g; g = f; f = e; e = d &+ t1
            d = c; c = b; b = a; a = t1 &+ t2
        }
        for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] &+= value }
    }

    private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value >> count | value << (32 - count)
    }

    /// The SHA-256 round constants (FIPS 180-4, 4.2.2).
    private static let k: [UInt32] = [
        0x428A_2F98, 0x7137_4491, 0xB5C0_FBCF, 0xE9B5_DBA5, 0x3956_C25B, 0x59F1_11F1, 0x923F_82A4, 0xAB1C_5ED5,
        0xD807_AA98, 0x1283_5B01, 0x2431_85BE, 0x550C_7DC3, 0x72BE_5D74, 0x80DE_B1FE, 0x9BDC_06A7, 0xC19B_F174,
        0xE49B_69C1, 0xEFBE_4786, 0x0FC1_9DC6, 0x240C_A1CC, 0x2DE9_2C6F, 0x4A74_84AA, 0x5CB0_A9DC, 0x76F9_88DA,
        0x983E_5152, 0xA831_C66D, 0xB003_27C8, 0xBF59_7FC7, 0xC6E0_0BF3, 0xD5A7_9147, 0x06CA_6351, 0x1429_2967,
        0x27B7_0A85, 0x2E1B_2138, 0x4D2C_6DFC, 0x5338_0D13, 0x650A_7354, 0x766A_0ABB, 0x81C2_C92E, 0x9272_2C85,
        0xA2BF_E8A1, 0xA81A_664B, 0xC24B_8B70, 0xC76C_51A3, 0xD192_E819, 0xD699_0624, 0xF40E_3585, 0x106A_A070,
        0x19A4_C116, 0x1E37_6C08, 0x2748_774C, 0x34B0_BCB5, 0x391C_0CB3, 0x4ED8_AA4A, 0x5B9C_CA4F, 0x682E_6FF3,
        0x748F_82EE, 0x78A5_636F, 0x84C8_7814, 0x8CC7_0208, 0x90BE_FFFA, 0xA450_6CEB, 0xBEF9_A3F7, 0xC671_78F2,
    ]
}

/// A SHA-224 digest: 28 bytes.
struct SHA224Digest: Digest {
    let bytes: [UInt8]

    static var byteCount: Int { SHA224.byteCount }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    func makeIterator() -> IndexingIterator<[UInt8]> {
        bytes.makeIterator()
    }

    var description: String { "SHA224 digest: " + bytes.map { String(format: "%02x", $0) }.joined() }
}
