import BigInt
import Crypto
import CryptoExtras
import Foundation

/// How a session's secrets travel on the bus: as they are (`plain`), or encrypted with a key
/// agreed when the session opened (`dh-ietf1024-sha256-aes128-cbc-pkcs7`).
enum SessionTransport: Sendable {
    case plain
    /// AES-128-CBC with PKCS #7 padding; each secret's parameters are its 16-byte IV.
    case aes(SymmetricKey)

    static let plainAlgorithm = "plain"
    static let dhAlgorithm = "dh-ietf1024-sha256-aes128-cbc-pkcs7"

    /// The secret a client sent, from its parameters and value.
    func open(parameters: [UInt8], value: [UInt8]) throws(BusFailure) -> [UInt8] {
        switch self {
        case .plain:
            guard parameters.isEmpty else { throw .invalidArguments("a plain session's secret takes no parameters") }
            return value
        case .aes(let key):
            do {
                let iv = try AES._CBC.IV(ivBytes: parameters)
                var plaintext = try AES._CBC.decrypt(value, using: key, iv: iv)
                defer { plaintext.zero() }
                return [UInt8](plaintext)
            } catch {
                throw .invalidArguments("the secret cannot be decrypted with the session's key (a 16-byte IV "
                                        + "and AES-128-CBC with PKCS #7 padding are expected)")
            }
        }
    }

    /// The parameters and value that carry `secret` to the client.
    func seal(_ secret: Data) throws(BusFailure) -> (parameters: Data, value: Data) {
        switch self {
        case .plain:
            return (Data(), secret)
        case .aes(let key):
            let iv = AES._CBC.IV()
            do {
                return (Data(iv), try AES._CBC.encrypt(secret, using: key, iv: iv))
            } catch {
                throw .failed("cannot encrypt the secret for the session")
            }
        }
    }

    /// Opens the transport for `algorithm` with the client's `input`; the transport and the
    /// output for the client (the provider's public key for dh, nothing for plain).
    static func negotiate(_ algorithm: String, input: [UInt8]?) throws(BusFailure) -> (SessionTransport, [UInt8]?) {
        switch algorithm {
        case plainAlgorithm:
            return (.plain, nil)
        case dhAlgorithm:
            guard let input else { throw .invalidArguments("\(dhAlgorithm) takes the client's public key as 'ay'") }
            let (publicKey, key) = try DiffieHellman.agree(withClientKey: input)
            return (.aes(key), publicKey)
        default:
            throw .notSupported("the algorithm '\(algorithm.prefix(64))' is not supported; use '\(dhAlgorithm)' or 'plain'")
        }
    }
}

/// The Diffie-Hellman agreement of `dh-ietf1024-sha256-aes128-cbc-pkcs7`: the 1024-bit MODP
/// group of RFC 2409 (generator 2), the shared secret as 128 big-endian bytes, and HKDF-SHA256
/// with no salt and no info to a 16-byte AES key.
///
/// BigInt's arithmetic is not constant-time: on a bus that only the user's own processes
/// reach, the exchange protects secrets from being read off the bus (a monitor, a log), not
/// from a timing attacker on the same machine.
enum DiffieHellman {
    static let prime = BigUInt(Data([
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xC9, 0x0F, 0xDA, 0xA2, 0x21, 0x68, 0xC2, 0x34,
        0xC4, 0xC6, 0x62, 0x8B, 0x80, 0xDC, 0x1C, 0xD1, 0x29, 0x02, 0x4E, 0x08, 0x8A, 0x67, 0xCC, 0x74,
        0x02, 0x0B, 0xBE, 0xA6, 0x3B, 0x13, 0x9B, 0x22, 0x51, 0x4A, 0x08, 0x79, 0x8E, 0x34, 0x04, 0xDD,
        0xEF, 0x95, 0x19, 0xB3, 0xCD, 0x3A, 0x43, 0x1B, 0x30, 0x2B, 0x0A, 0x6D, 0xF2, 0x5F, 0x14, 0x37,
        0x4F, 0xE1, 0x35, 0x6D, 0x6D, 0x51, 0xC2, 0x45, 0xE4, 0x85, 0xB5, 0x76, 0x62, 0x5E, 0x7E, 0xC6,
        0xF4, 0x4C, 0x42, 0xE9, 0xA6, 0x37, 0xED, 0x6B, 0x0B, 0xFF, 0x5C, 0xB6, 0xF4, 0x06, 0xB7, 0xED,
        0xEE, 0x38, 0x6B, 0xFB, 0x5A, 0x89, 0x9F, 0xA5, 0xAE, 0x9F, 0x24, 0x11, 0x7C, 0x4B, 0x1F, 0xE6,
        0x49, 0x28, 0x66, 0x51, 0xEC, 0xE6, 0x53, 0x81, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    ]))
    static let primeBytes = 128

    /// The provider's public key and the session key agreed with `clientKey`, the client's
    /// public key in big-endian bytes. A key outside 2...p-2 is refused: 1 and p-1 would
    /// give a shared secret anyone can guess.
    static func agree(withClientKey clientKey: [UInt8]) throws(BusFailure) -> ([UInt8], SymmetricKey) {
        guard clientKey.count <= primeBytes else { throw .invalidArguments("the client's public key is longer than the prime") }
        let client = BigUInt(Data(clientKey))
        guard client > 1, client < prime - 1 else { throw .invalidArguments("the client's public key is out of range") }
        var random = SystemRandomNumberGenerator()
        // 256 random bits: twice the group's strength (about 80 bits), and a quarter of the
        // work of a full-size exponent.
        let privateKey = BigUInt(Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }))
        let publicKey = BigUInt(2).power(privateKey, modulus: prime)
        var shared = padded(client.power(privateKey, modulus: prime))
        defer { shared.zero() }
        let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: shared), salt: Data(), info: Data(),
                                         outputByteCount: 16)
        return ([UInt8](padded(publicKey)), key)
    }

    /// `value` as `primeBytes` big-endian bytes.
    private static func padded(_ value: BigUInt) -> Data {
        let bytes = value.serialize()
        return Data(count: max(0, primeBytes - bytes.count)) + bytes
    }
}
