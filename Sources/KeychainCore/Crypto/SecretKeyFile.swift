import Crypto
import Foundation

/// 32 random bytes in a file readable by its owner only (mode 0600): a keychain's device
/// key, beside its database, and the machine secret (see ``MachineSecret``).
///
/// The device key wraps the keys that need no password (the index key, class D, and every
/// class of a keychain without a password). Anyone who can read both files as this user can
/// open those; the file keeps the database unreadable when it is copied, backed up or leaked
/// alone.
///
/// The file is opened as ``PrivateFile`` says: a link, a FIFO, another user's file or one
/// that others may read is refused, never followed, waited on or chmodded.
enum SecretKeyFile {
    static let size = 32

    /// Reads the key, creating it first when `create` is true and there is none. Creation is
    /// atomic: racing processes all end up with the one key that was linked first.
    /// `role` names the key in errors ("device key", "machine secret").
    static func load(at url: URL, create: Bool, role: String = "device key") throws(KeychainError) -> SymmetricKey {
        if let key = try readKey(url, role: role) { return key }
        guard create else {
            throw .notAvailable("the \(role) \(url.lastPathComponent) is missing")
        }
        var fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        defer { fresh.zeroize() }
        try PrivateFile.install(fresh, at: url.path, role: role)
        guard let key = try readKey(url, role: role) else {
            throw .notAvailable("the \(role) vanished while it was created")
        }
        return key
    }

    private static func readKey(_ url: URL, role: String) throws(KeychainError) -> SymmetricKey? {
        guard var bytes = try PrivateFile.read(url.path, limit: size, role: role) else { return nil }
        defer { bytes.zeroize() }
        guard bytes.count == size else {
            throw .notAvailable("the \(role) \(url.lastPathComponent) is damaged")
        }
        return SymmetricKey(data: bytes)
    }
}
