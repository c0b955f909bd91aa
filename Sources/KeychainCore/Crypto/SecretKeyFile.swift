import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// 32 random bytes in a file readable by its owner only (mode 0600): a keychain's device
/// key, beside its database, and the machine secret (see ``MachineSecret``).
///
/// The device key wraps the keys that need no password (the index key, class D, and every
/// class of a keychain without a password). Anyone who can read both files as this user can
/// open those; the file keeps the database unreadable when it is copied, backed up or leaked
/// alone.
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
        let temporary = url.path + ".\(getpid()).\(UUID().uuidString).tmp"
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        defer { unlink(temporary) }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .notAvailable("cannot create the \(role): \(errnoText())") }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        close(fd)
        guard written == size, synced == 0 else {
            throw .notAvailable("cannot write the \(role): \(errnoText())")
        }
        if link(temporary, url.path) != 0 && errno != EEXIST {
            throw .notAvailable("cannot install the \(role): \(errnoText())")
        }
        guard let key = try readKey(url, role: role) else {
            throw .notAvailable("the \(role) vanished while it was created")
        }
        return key
    }

    private static func readKey(_ url: URL, role: String) throws(KeychainError) -> SymmetricKey? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .notAvailable("cannot read the \(role): \(errnoText())")
        }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: size + 1)
        let count = read(fd, &buffer, buffer.count)
        guard count == size else {
            throw .notAvailable("the \(role) \(url.lastPathComponent) is damaged")
        }
        return SymmetricKey(data: buffer[0..<size])
    }
}

func errnoText() -> String { String(cString: strerror(errno)) }
