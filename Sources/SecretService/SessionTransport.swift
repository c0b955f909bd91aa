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
