import Crypto
import Foundation

/// The secret of an item whose access control has `.applicationPassword`: sealed with
/// AES-256-GCM under a key that scrypt derives from the application's password and a salt of
/// the item's own, inside the record's usual sealing. Without the password the library cannot
/// open it, whoever calls it; a wrong password fails the tag (errSecAuthFailed), never yields
/// a wrong secret.
///
/// Layout: `"SKAP"`, version 1, scrypt's log2 N, r and p (one byte each), the 16-byte salt,
/// then AES-GCM's nonce, ciphertext and tag. The associated data binds the header, so that
/// neither the parameters nor the salt can be swapped.
package enum ApplicationPasswordSeal {
    private static let magic = Data("SKAP".utf8)
    private static let version: UInt8 = 1
    private static let headerCount = 4 + 1 + 3 + 16

    /// A key for sealing new secrets under `password`, with a fresh salt and the parameters of
    /// `kdf` (the keychain's own, or the standard ones).
    package struct SealingKey: Sendable {
        let key: SymmetricKey
        let header: Data
    }

    /// Derives a sealing key for `password` with `kdf`'s parameters and a new salt: the one
    /// scrypt run a sealing costs, done before any write so that no lock is held meanwhile.
    package static func sealingKey(password: SecretBytes, kdf: PasswordKDF) throws(KeychainError) -> SealingKey {
        let fresh = PasswordKDF(logRounds: kdf.logRounds, blockSize: kdf.blockSize, parallelism: kdf.parallelism,
                                salt: Data(RandomBytes.draw(16)))
        var header = magic
        header.append(contentsOf: [version, UInt8(fresh.logRounds), UInt8(fresh.blockSize), UInt8(fresh.parallelism)])
        header.append(fresh.salt)
        return SealingKey(key: try derive(password, fresh), header: header)
    }

    /// `secret` sealed under `key`.
    package static func seal(_ secret: Data, with key: SealingKey) throws(KeychainError) -> Data {
        do {
            let box = try AES.GCM.seal(secret, using: key.key, authenticating: key.header)
            guard let combined = box.combined else { throw KeychainError.io("AES-GCM gave no combined form") }
            return key.header + combined
        } catch let error as KeychainError {
            throw error
        } catch {
            throw .io("sealing under the application password failed")
        }
    }

    /// Opens a sealed secret with `password`: errSecAuthFailed when the password is wrong,
    /// errSecDecode when the bytes are no such seal or ask for unreasonable scrypt work.
    package static func open(_ sealed: Data, password: SecretBytes) throws(KeychainError) -> Data {
        let bytes = Data(sealed)
        guard bytes.count >= headerCount + 12 + 16, bytes.prefix(4) == magic, bytes[4] == version else {
            throw .decode
        }
        let kdf = PasswordKDF(logRounds: Int(bytes[5]), blockSize: Int(bytes[6]), parallelism: Int(bytes[7]),
                              salt: bytes.subdata(in: 8..<headerCount))
        guard kdf.isReasonable else { throw .decode }
        let header = bytes.prefix(headerCount)
        let key = try derive(password, kdf)
        do {
            let box = try AES.GCM.SealedBox(combined: bytes.dropFirst(headerCount))
            return try AES.GCM.open(box, using: key, authenticating: header)
        } catch {
            throw .authFailed
        }
    }

    private static func derive(_ password: SecretBytes, _ kdf: PasswordKDF) throws(KeychainError) -> SymmetricKey {
        var copy = password.withUnsafeBytes { Data($0) }
        defer { copy.zeroize() }
        return try kdf.deriveKey(from: copy)
    }
}
