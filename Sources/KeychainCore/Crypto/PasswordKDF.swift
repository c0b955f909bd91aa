import Crypto
import CryptoExtras
import Foundation

/// scrypt, the key derivation that turns a password into a wrapping key: for a keychain's
/// password and for an export archive's.
///
/// The parameters and the salt are stored beside what the key wraps, so that they can be
/// raised later without making older keychains or archives unreadable.
public struct PasswordKDF: Sendable, Hashable, Codable {
    /// log2 of scrypt's cost parameter N.
    public var logRounds: Int
    /// scrypt's block size r.
    public var blockSize: Int
    /// scrypt's parallelism p.
    public var parallelism: Int
    /// Random, 16 bytes, drawn anew for every password.
    public var salt: Data

    /// N = 2^16, r = 8, p = 1: 64 MiB and about 170 ms per guess on a 2-core virtual machine
    /// in release builds (twice the floor of 100 ms, so slower machines still pay it).
    public static func standard() -> PasswordKDF {
        PasswordKDF(logRounds: 16, blockSize: 8, parallelism: 1, salt: Data(RandomBytes.draw(16)))
    }

    /// N = 2^10: about 1 ms. Only for tests, which create and unlock many keychains.
    public static func fastForTesting() -> PasswordKDF {
        PasswordKDF(logRounds: 10, blockSize: 8, parallelism: 1, salt: Data(RandomBytes.draw(16)))
    }

    public init(logRounds: Int, blockSize: Int, parallelism: Int, salt: Data) {
        self.logRounds = logRounds
        self.blockSize = blockSize
        self.parallelism = parallelism
        self.salt = salt
    }

    /// Parameters within these bounds are the only ones a stored record may name: a damaged
    /// or hostile record must not make the library allocate gigabytes or spin for minutes.
    var isReasonable: Bool {
        (10...22).contains(logRounds) && (1...32).contains(blockSize) && (1...16).contains(parallelism)
            && salt.count >= 16 && salt.count <= 64
    }

    /// The 256-bit key for `password`.
    func deriveKey(from password: Data) throws(KeychainError) -> SymmetricKey {
        guard isReasonable else { throw .decode }
        do {
            return try KDF.Scrypt.deriveKey(
                from: password, salt: salt, outputByteCount: 32,
                rounds: 1 << logRounds, blockSize: blockSize, parallelism: parallelism)
        } catch {
            throw .io("scrypt failed")
        }
    }

    /// A compact text form for the database: `scrypt N=16 r=8 p=1 <salt hex>`.
    var encoded: String {
        "scrypt \(logRounds) \(blockSize) \(parallelism) \(Hex.string(salt))"
    }

    init?(encoded text: String) {
        let parts = text.split(separator: " ")
        guard parts.count == 5, parts[0] == "scrypt",
              let logRounds = Int(parts[1]), let blockSize = Int(parts[2]), let parallelism = Int(parts[3]),
              let salt = Hex.bytes(parts[4]) else { return nil }
        self.init(logRounds: logRounds, blockSize: blockSize, parallelism: parallelism, salt: salt)
        guard isReasonable else { return nil }
    }
}
