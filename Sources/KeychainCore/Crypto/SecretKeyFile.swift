import Crypto
import Foundation

/// 32 random bytes in a file readable by its owner only (mode 0600): the machine secret (see
/// ``MachineSecret``). A keychain's device key is a ``DeviceKeyFile``, which may be sealed
/// to a TPM instead.
///
/// The file is opened as ``PrivateFile`` says: a link, a FIFO, another user's file or one
/// that others may read is refused, never followed, waited on or chmodded.
enum SecretKeyFile {
    static let size = 32

    /// Reads the key, creating it first when `create` is true and there is none. Creation is
    /// atomic: racing processes all end up with the one key that was linked first.
    /// `role` names the key in errors ("machine secret").
    static func load(at url: URL, create: Bool, role: String) throws(KeychainError) -> SymmetricKey {
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
