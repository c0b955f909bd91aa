import Crypto
import Foundation

/// How a keychain's device key is kept: the protection that a keychain without a password
/// has, and that the index key and class D items of every keychain have.
package enum DeviceKeyProtection: String, Sendable {
    /// 32 bytes in `<name>.keychain-key`, protected by file permissions only: whoever can read
    /// that file and the database (a backup, a copy of the disk, root) can open those keys.
    case file
    /// Sealed to this machine's TPM 2.0: `<name>.keychain-key` holds a blob only that TPM can
    /// unseal, so a copy of the files opens nothing on another machine, or here once the TPM
    /// has been cleared.
    case tpm
}

/// A keychain's device key file, `<name>.keychain-key`: 32 random bytes that wrap the keys
/// that need no password (the index key, class D, and every class of a keychain without a
/// password).
///
/// Two forms, told apart by their first bytes:
/// - the key itself, 32 bytes: where no TPM was selected when the keychain was made;
/// - ``sealedHeader`` then the blob of a TPM 2.0 sealed data object holding the key (see
///   ``TrustedPlatformModule/seal(_:)``): where one was. A new keychain's key is sealed to
///   the TPM the process selects; a keychain made without one keeps its file key.
///
/// A sealed key is unsealed once per boot: the key is then kept in the user's kernel keyring
/// (``UnlockedKeyCache``, user-only permissions, no timeout; emptied at reboot), under a
/// name derived from the file's path and blob, so that later processes open the keychain
/// without the TPM. Where the keyring is unavailable, each process unseals it once.
///
/// The file is opened as ``PrivateFile`` says: a link, a FIFO, another user's file or one
/// that others may read is refused, never followed, waited on or chmodded.
enum DeviceKeyFile {
    static let keySize = 32
    /// The first line of a sealed key file; a later format would change its version.
    static let sealedHeader = Data("swift-keychain device key sealed to a TPM 2.0, version 1\n".utf8)
    /// What every sealed key file starts with, whatever its version.
    private static let sealedPrefix = Data("swift-keychain device key sealed".utf8)
    /// Larger than a header and the largest blob a TPM makes.
    private static let maximumSize = 4096

    private static let role = "device key"

    /// What the file holds.
    enum Contents {
        case key(SymmetricKey)
        case sealed(blob: Data)
    }

    /// The device key of `files`, creating it first when `create` is true and there is none:
    /// sealed to the TPM the process selects (``TrustedPlatformModule/selected(environment:)``)
    /// when there is one, else as a file key. Creation is atomic: racing processes all end up
    /// with the one key that was linked first.
    ///
    /// - Throws: errSecNotAvailable when the file is missing (and not created), damaged, or
    ///   sealed to a TPM that is not here or cannot unseal it.
    static func load(_ files: KeychainFiles, create: Bool, cache: UnlockedKeyCache = .shared) throws(KeychainError) -> SymmetricKey {
        let url = files.deviceKey
        if let contents = try read(url) { return try key(of: contents, at: url, cache: cache) }
        guard create else {
            throw .notAvailable("the \(role) \(url.lastPathComponent) is missing")
        }
        var fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        defer { fresh.zeroize() }
        var written = fresh
        defer { written.zeroize() }
        if let tpm = TrustedPlatformModule.selected() {
            do {
                written = sealedHeader + (try tpm.seal(fresh.withUnsafeBytes { SecretBytes(copying: $0) }))
            } catch where tpm.isNamed {
                throw .notAvailable("cannot seal the new keychain's \(role) to the TPM that \(TrustedPlatformModule.environmentVariable) names: \(error.message)")
            } catch {
                // The default device was found usable but fails: the keychain is made with a
                // file key rather than not at all, and says so (keychainctl show-keychain-info).
                keychainLogger.warning(
                    "the TPM failed; the new keychain's device key is kept in a file, protected by file permissions only",
                    metadata: ["reason": "\(error.message)", "path": "\(url.path)"])
            }
        }
        try PrivateFile.install(written, at: url.path, role: role)
        guard let contents = try read(url) else {
            throw .notAvailable("the \(role) vanished while it was created")
        }
        // This process's file won the race: its key is known without unsealing.
        if case .sealed(let blob) = contents, sealedHeader + blob == written {
            let key = SymmetricKey(data: fresh)
            cache.store(key.withUnsafeBytes { SecretBytes(copying: $0) }, as: cacheName(url, blob: blob), timeout: nil)
            return key
        }
        return try key(of: contents, at: url, cache: cache)
    }

    /// How the device key of `files` is kept; nil when there is no key file.
    static func protection(_ files: KeychainFiles) throws(KeychainError) -> DeviceKeyProtection? {
        switch try read(files.deviceKey) {
        case nil: nil
        case .key: .file
        case .sealed: .tpm
        }
    }

    /// Removes the unsealed key of `files` from the kernel keyring: when the keychain is deleted.
    static func forgetUnsealedKey(_ files: KeychainFiles, cache: UnlockedKeyCache = .shared) {
        guard case .sealed(let blob)? = try? read(files.deviceKey) else { return }
        cache.remove(cacheName(files.deviceKey, blob: blob))
    }

    /// The file's contents; nil when it is missing.
    static func read(_ url: URL) throws(KeychainError) -> Contents? {
        guard var bytes = try PrivateFile.read(url.path, limit: maximumSize, role: role) else { return nil }
        defer { bytes.zeroize() }
        if bytes.count == keySize { return .key(SymmetricKey(data: bytes)) }
        if bytes.starts(with: sealedHeader) {
            return .sealed(blob: Data(bytes.dropFirst(sealedHeader.count)))
        }
        if bytes.starts(with: sealedPrefix) {
            throw .notAvailable("the \(role) \(url.lastPathComponent) is sealed to a TPM in a format this version of the library does not know")
        }
        throw .notAvailable("the \(role) \(url.lastPathComponent) is damaged: it is neither a 32-byte key nor a key sealed to a TPM")
    }

    private static func key(of contents: Contents, at url: URL, cache: UnlockedKeyCache) throws(KeychainError) -> SymmetricKey {
        switch contents {
        case .key(let key): return key
        case .sealed(let blob): return try unseal(blob, at: url, cache: cache)
        }
    }

    /// What an error about a sealed key adds: where the keychain opens, and how items move.
    private static let movingItems = "a keychain whose device key is sealed to a TPM opens only on the machine of that TPM, until the TPM is cleared; items move between machines as archives (keychainctl export-archive, then import-archive)"

    /// The key a sealed blob holds: from the kernel keyring when this boot unsealed it
    /// already, else unsealed by the TPM and kept there.
    private static func unseal(_ blob: Data, at url: URL, cache: UnlockedKeyCache) throws(KeychainError) -> SymmetricKey {
        let name = cacheName(url, blob: blob)
        if let (_, payload) = cache.find(name), payload.count == keySize {
            return payload.withUnsafeBytes { SymmetricKey(data: $0) }
        }
        guard let tpm = TrustedPlatformModule.selected() else {
            throw .notAvailable("the \(role) \(url.path) is sealed to a TPM, and no TPM is available (\(TrustedPlatformModule.defaultDevice) cannot be opened, or \(TrustedPlatformModule.environmentVariable) names none): \(movingItems)")
        }
        let unsealed: SecretBytes
        do {
            unsealed = try tpm.unseal(blob)
        } catch {
            switch error.kind {
            case .madeByAnotherTPM:
                throw .notAvailable("the \(role) \(url.path) was sealed to another TPM, or to this one before it was cleared, and does not unseal here (\(error.message)): \(movingItems)")
            case .damaged:
                throw .notAvailable("the \(role) \(url.path) is damaged: \(error.message)")
            case .notAvailable:
                throw .notAvailable("the \(role) \(url.path) is sealed to a TPM that cannot be used now: \(error.message)")
            }
        }
        guard unsealed.count == keySize else {
            throw .notAvailable("the \(role) \(url.path) is damaged: the TPM unsealed \(unsealed.count) bytes rather than \(keySize)")
        }
        cache.store(unsealed, as: name, timeout: nil)
        return unsealed.withUnsafeBytes { SymmetricKey(data: $0) }
    }

    /// The key's entry in the kernel keyring: named by the file's resolved path and its blob,
    /// so that a copy of the folder elsewhere, or a new keychain at the same place, is
    /// unsealed afresh rather than given another key.
    static func cacheName(_ url: URL, blob: Data) -> String {
        let path = Data(utf8Of: url.resolvingSymlinksInPath().path)
        let digest = SHA256.hash(data: path + Data([0]) + blob)
        return "swift-keychain:device-key:\(Hex.string(digest.prefix(16)))"
    }
}
