import Crypto
import CryptoExtras
import Foundation
import KeychainCore

/// The archive reader, without spending the fuzzer's time in scrypt. The first byte chooses
/// what the rest is:
/// - even: a whole archive, read with a fixed password. Bytes the fuzzer makes never carry a
///   valid SHA-256 trailer, so the reader stops before the KDF: this fuzzes the header
///   parser and the checks that precede the KDF (also through ``KeychainArchive/recordedKDF(in:)``);
/// - odd: the decrypted payload, which the target seals into a valid archive under a fixed
///   key (the cheapest KDF an archive may name), so that the reader's payload decoder and item
///   validation see it.
///
/// Either way the reader throws errSecDecode or returns items; it never traps, and never
/// answers errSecAuthFailed, as the password is right.
enum ArchiveReaderTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard let mode = bytes.first else { return }
        let rest = Data(bytes.dropFirst())
        if mode & 1 == 0 {
            _ = try? KeychainArchive.recordedKDF(in: rest)
            read(rest)
        } else {
            read(FixedKeyArchive.sealing(payload: rest))
        }
    }

    private static func read(_ archive: Data) {
        do {
            _ = try KeychainArchive.open(archive, password: FixedKeyArchive.password)
        } catch {
            guard error == .decode else { fatalError("a damaged archive gave \(error), not errSecDecode") }
        }
    }
}

/// Archives sealed under one password and salt, with the cheapest scrypt parameters an
/// archive may record. The keys are derived here as the format describes them (scrypt, then
/// HKDF-SHA256 per purpose), independently of the reader, once per process.
package enum FixedKeyArchive {
    package static let password = Data("libfuzz archive password".utf8)
    static let kdf = (logRounds: 10, blockSize: 1, parallelism: 1, salt: Data(repeating: 0x5A, count: 16))

    private static let keys: (payload: SymmetricKey, check: SymmetricKey) = {
        guard let master = try? KDF.Scrypt.deriveKey(
            from: password, salt: kdf.salt, outputByteCount: 32,
            rounds: 1 << kdf.logRounds, blockSize: kdf.blockSize, parallelism: kdf.parallelism)
        else { fatalError("scrypt failed for the fixed archive key") }
        func key(_ purpose: String) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("swift-keychain archive \(purpose)".utf8),
                                   outputByteCount: 32)
        }
        return (key("payload"), key("password check"))
    }()

    /// An intact archive whose decrypted payload is `payload`.
    package static func sealing(payload: Data) -> Data {
        var header = Data(KeychainArchive.magic)
        header.append(contentsOf: [UInt8(KeychainArchive.formatVersion >> 8), UInt8(KeychainArchive.formatVersion & 0xFF)])
        header.append(contentsOf: [UInt8(kdf.logRounds), UInt8(kdf.blockSize), UInt8(kdf.parallelism), UInt8(kdf.salt.count)])
        header.append(kdf.salt)
        header.append(keys.check.withUnsafeBytes { Data($0) })
        guard let sealed = try? AES.GCM.seal(payload, using: keys.payload, authenticating: header).combined else {
            fatalError("AES-GCM cannot seal the fixed archive's payload")
        }
        var archive = header + sealed
        archive.append(contentsOf: SHA256.hash(data: archive))
        return archive
    }
}
