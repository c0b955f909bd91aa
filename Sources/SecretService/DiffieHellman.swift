// The exponentiations are BoringSSL's (the one swift-crypto builds), through its C module:
// swift-crypto has no finite-field Diffie-Hellman, and BoringSSL's modular exponentiation runs
// in constant time and clears the numbers it frees. An internal import: this module is the
// provider's own, never loaded by other packages.
internal import CCryptoBoringSSL
import Crypto
import Foundation

/// The Diffie-Hellman agreement of `dh-ietf1024-sha256-aes128-cbc-pkcs7`: the 1024-bit MODP
/// group of RFC 2409 (generator 2), the shared secret as 128 big-endian bytes, and HKDF-SHA256
/// with no salt and no info to a 16-byte AES key.
enum DiffieHellman {
    /// The group's prime, big-endian.
    static let prime: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xC9, 0x0F, 0xDA, 0xA2, 0x21, 0x68, 0xC2, 0x34,
        0xC4, 0xC6, 0x62, 0x8B, 0x80, 0xDC, 0x1C, 0xD1, 0x29, 0x02, 0x4E, 0x08, 0x8A, 0x67, 0xCC, 0x74,
        0x02, 0x0B, 0xBE, 0xA6, 0x3B, 0x13, 0x9B, 0x22, 0x51, 0x4A, 0x08, 0x79, 0x8E, 0x34, 0x04, 0xDD,
        0xEF, 0x95, 0x19, 0xB3, 0xCD, 0x3A, 0x43, 0x1B, 0x30, 0x2B, 0x0A, 0x6D, 0xF2, 0x5F, 0x14, 0x37,
        0x4F, 0xE1, 0x35, 0x6D, 0x6D, 0x51, 0xC2, 0x45, 0xE4, 0x85, 0xB5, 0x76, 0x62, 0x5E, 0x7E, 0xC6,
        0xF4, 0x4C, 0x42, 0xE9, 0xA6, 0x37, 0xED, 0x6B, 0x0B, 0xFF, 0x5C, 0xB6, 0xF4, 0x06, 0xB7, 0xED,
        0xEE, 0x38, 0x6B, 0xFB, 0x5A, 0x89, 0x9F, 0xA5, 0xAE, 0x9F, 0x24, 0x11, 0x7C, 0x4B, 0x1F, 0xE6,
        0x49, 0x28, 0x66, 0x51, 0xEC, 0xE6, 0x53, 0x81, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    ]
    static let primeBytes = 128

    /// The provider's public key and the session key agreed with `clientKey`, the client's
    /// public key in big-endian bytes. A key outside 2...p-2 is refused: 1 and p-1 would
    /// give a shared secret anyone can guess.
    static func agree(withClientKey clientKey: [UInt8]) throws(BusFailure) -> ([UInt8], SymmetricKey) {
        guard clientKey.count <= primeBytes else { throw .invalidArguments("the client's public key is longer than the prime") }
        let numbers = Numbers()
        guard let modulus = numbers.make(prime), let lastValid = numbers.make(prime),
              CCryptoBoringSSL_BN_sub_word(lastValid, 2) == 1,
              let client = numbers.make(clientKey) else {
            throw .failed("the key agreement could not allocate its numbers")
        }
        guard CCryptoBoringSSL_BN_cmp_word(client, 2) >= 0, CCryptoBoringSSL_BN_cmp(client, lastValid) <= 0 else {
            throw .invalidArguments("the client's public key is out of range")
        }
        // 256 random bits: twice the group's strength (about 80 bits), and a quarter of the
        // work of a full-size exponent.
        guard let privateKey = numbers.make([]), CCryptoBoringSSL_BN_rand(privateKey, 256, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1,
              let generator = numbers.make([2]),
              let publicKey = numbers.power(generator, privateKey, modulus),
              let sharedNumber = numbers.power(client, privateKey, modulus),
              let publicBytes = Self.bytes(of: publicKey), var shared = Self.bytes(of: sharedNumber) else {
            throw .failed("the key agreement failed")
        }
        defer { shared.resetBytes(in: 0..<shared.count) }
        let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: shared), salt: Data(), info: Data(),
                                         outputByteCount: 16)
        return ([UInt8](publicBytes), key)
    }

    /// `number` as `primeBytes` big-endian bytes.
    private static func bytes(of number: UnsafeMutablePointer<BIGNUM>) -> Data? {
        var bytes = Data(count: primeBytes)
        let written = bytes.withUnsafeMutableBytes { buffer in
            CCryptoBoringSSL_BN_bn2bin_padded(buffer.bindMemory(to: UInt8.self).baseAddress, primeBytes, number)
        }
        return written == 1 ? bytes : nil
    }

    /// The numbers of one agreement, cleared and freed together when it ends.
    private final class Numbers {
        private var made: [UnsafeMutablePointer<BIGNUM>] = []
        private let context = CCryptoBoringSSL_BN_CTX_new()

        deinit {
            made.forEach { CCryptoBoringSSL_BN_clear_free($0) }
            CCryptoBoringSSL_BN_CTX_free(context)
        }

        /// A number of these big-endian bytes (zero for none).
        func make(_ bytes: [UInt8]) -> UnsafeMutablePointer<BIGNUM>? {
            guard let number = bytes.withUnsafeBufferPointer({ CCryptoBoringSSL_BN_bin2bn($0.baseAddress, $0.count, nil) }) else {
                return nil
            }
            made.append(number)
            return number
        }

        /// `base^exponent mod modulus`, in constant time; `base` must be below `modulus`.
        func power(_ base: UnsafeMutablePointer<BIGNUM>, _ exponent: UnsafeMutablePointer<BIGNUM>,
                   _ modulus: UnsafeMutablePointer<BIGNUM>) -> UnsafeMutablePointer<BIGNUM>? {
            guard let context, let result = make([]),
                  CCryptoBoringSSL_BN_mod_exp_mont_consttime(result, base, exponent, modulus, context, nil) == 1 else {
                return nil
            }
            return result
        }
    }
}
