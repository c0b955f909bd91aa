internal import Crypto

/// The key derivation of PKCS#12 (RFC 7292 appendix B.2), over one of swift-crypto's hash
/// functions: the MAC key (ID 3) and the keys and IVs of the legacy PBE schemes (IDs 1, 2).
enum PKCS12KeyDerivation {
    enum Purpose: UInt8 {
        case encryptionKey = 1
        case initializationVector = 2
        case macKey = 3
    }

    /// `count` bytes derived from `passphrase` (the BMPString form) and `salt` with
    /// `iterations` (at least 1; the caller has checked its bound).
    static func derive<Hash: HashFunction>(_ hash: Hash.Type, passphrase: [UInt8], salt: [UInt8], iterations: Int,
                                           purpose: Purpose, count: Int) -> [UInt8] {
        let v = Hash.blockByteCount, u = Hash.Digest.byteCount
        let diversifier = [UInt8](repeating: purpose.rawValue, count: v)
        func repeated(_ bytes: [UInt8]) -> [UInt8] {
            guard !bytes.isEmpty else { return [] }
            let length = v * ((bytes.count + v - 1) / v)
            return (0..<length).map { bytes[$0 % bytes.count] }
        }
        var input = repeated(salt) + repeated(passphrase)
        var output: [UInt8] = []
        output.reserveCapacity(count + u)
        while output.count < count {
            var a = Array(Hash.hash(data: diversifier + input))
            for _ in 1..<max(iterations, 1) { a = Array(Hash.hash(data: a)) }
            output += a
            guard output.count < count else { break }
            // I_j = (I_j + B + 1) mod 2^(8v) for each v-byte block I_j of I.
            let b = (0..<v).map { a[$0 % u] }
            for start in stride(from: 0, to: input.count, by: v) {
                var carry: UInt16 = 1
                for offset in stride(from: v - 1, through: 0, by: -1) {
                    let sum = UInt16(input[start + offset]) + UInt16(b[offset]) + carry
                    input[start + offset] = UInt8(sum & 0xFF)
                    carry = sum >> 8
                }
            }
        }
        return Array(output.prefix(count))
    }
}
