import Crypto
import CryptoExtras
import Foundation

/// scrypt, the key derivation that turns a password into a wrapping key: for a keychain's
/// password and for an export archive's.
///
/// The parameters and the salt are stored beside what the key wraps, so that they can be
/// raised later without making older keychains or archives unreadable.
package struct PasswordKDF: Sendable, Hashable, Codable {
    /// log2 of scrypt's cost parameter N.
    package var logRounds: Int
    /// scrypt's block size r.
    package var blockSize: Int
    /// scrypt's parallelism p.
    package var parallelism: Int
    /// Random, 16 bytes, drawn anew for every password.
    package var salt: Data

    /// N = 2^16, r = 8, p = 1: 64 MiB and about 170 ms per guess on a 2-core virtual machine
    /// in release builds (twice the issue's floor of 100 ms, so slower machines still pay it).
    package static func standard() -> PasswordKDF {
        PasswordKDF(logRounds: 16, blockSize: 8, parallelism: 1, salt: Data(RandomBytes.draw(16)))
    }

    /// N = 2^10: about 1 ms. Only for tests, which create and unlock many keychains.
    package static func fastForTesting() -> PasswordKDF {
        PasswordKDF(logRounds: 10, blockSize: 8, parallelism: 1, salt: Data(RandomBytes.draw(16)))
    }

    package init(logRounds: Int, blockSize: Int, parallelism: Int, salt: Data) {
        self.logRounds = logRounds
        self.blockSize = blockSize
        self.parallelism = parallelism
        self.salt = salt
    }

    /// The most memory a set of parameters may ask for: scrypt's 128·N·r bytes at most
    /// 256 MiB, four times the standard's.
    static let maximumMemory = 256 << 20
    /// The most work a set of parameters may ask for: N·r·p at most 16 times the standard's
    /// (2^16 · 8 · 1), so about 16 times its time per guess.
    static let maximumWork = 16 << 19

    /// The bytes scrypt's large array takes: 128·N·r (nil when that overflows).
    var memory: Int? {
        guard (0..<48).contains(logRounds), blockSize > 0 else { return nil }
        let (bytes, overflow) = (128 << logRounds).multipliedReportingOverflow(by: blockSize)
        return overflow ? nil : bytes
    }

    /// scrypt's work: N·r·p (nil when that overflows).
    var work: Int? {
        guard (0..<48).contains(logRounds), blockSize > 0, parallelism > 0 else { return nil }
        let (rows, rowsOverflow) = (1 << logRounds).multipliedReportingOverflow(by: blockSize)
        let (work, workOverflow) = rows.multipliedReportingOverflow(by: parallelism)
        return rowsOverflow || workOverflow ? nil : work
    }

    /// Why these parameters ask for more than ``maximumMemory`` or ``maximumWork``, or nil
    /// when they do not. Parameters read from a keychain or an archive are someone else's:
    /// they are checked against this bound before anything runs scrypt, so that a damaged or
    /// hostile record cannot make the library allocate gigabytes or spin for minutes.
    var excessOverBound: String? {
        let asked = "scrypt N=2^\(logRounds), r=\(blockSize), p=\(parallelism)"
        guard let memory, memory <= Self.maximumMemory else {
            return "\(asked) needs \(memory.map { "\($0 >> 20) MiB" } ?? "more memory than can be counted"), "
                + "more than the bound of \(Self.maximumMemory >> 20) MiB (128·N·r)"
        }
        guard let work, work <= Self.maximumWork else {
            return "\(asked) asks for \(work.map { "\($0 >> 19)" } ?? "too many") times the standard work, "
                + "more than the bound of 16 (N·r·p at most 2^23)"
        }
        return nil
    }

    /// Whether the parameters are in the ranges a keychain or an archive may record: N from
    /// 2^10 to 2^22, r from 1 to 32, p from 1 to 16, a salt of 16 to 64 bytes. Values outside
    /// are damage; values inside may still ask for more than ``excessOverBound`` allows.
    var isWellFormed: Bool {
        (10...22).contains(logRounds) && (1...32).contains(blockSize) && (1...16).contains(parallelism)
            && (16...64).contains(salt.count)
    }

    /// Well formed and within the bound: the only parameters the library derives a key with.
    var isReasonable: Bool { isWellFormed && excessOverBound == nil }

    /// The 256-bit key for `password`. Parameters that are not well formed, or over the
    /// bound, are errSecParam saying why; scrypt does not run.
    func deriveKey(from password: Data) throws(KeychainError) -> SymmetricKey {
        guard isWellFormed else { throw .param("the scrypt parameters are malformed") }
        if let excess = excessOverBound { throw .param(excess) }
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

    /// The parameters of ``encoded``; nil for text of another form, or for parameters that
    /// are not well formed or ask for more than the bound allows (logged with why).
    init?(encoded text: String) {
        let parts = text.split(separator: " ")
        guard parts.count == 5, parts[0] == "scrypt",
              let logRounds = Int(parts[1]), let blockSize = Int(parts[2]), let parallelism = Int(parts[3]),
              let salt = Hex.bytes(parts[4]) else { return nil }
        self.init(logRounds: logRounds, blockSize: blockSize, parallelism: parallelism, salt: salt)
        guard isWellFormed else {
            keychainLogger.error("refusing a keychain's password parameters: they are damaged",
                                 metadata: ["parameters": "\(logRounds) \(blockSize) \(parallelism)"])
            return nil
        }
        if let excess = excessOverBound {
            // The caller reports errSecNotAvailable; only the log can say why.
            keychainLogger.error("refusing a keychain's password parameters before running scrypt",
                                 metadata: ["reason": "\(excess)"])
            return nil
        }
    }
}
