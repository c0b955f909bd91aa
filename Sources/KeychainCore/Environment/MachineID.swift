import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This machine's identity as systemd records it: `/etc/machine-id` (33 bytes, 32 hex
/// digits and a newline). A cloned virtual machine or a container image may carry another
/// machine's, and a new one appears when it is regenerated.
enum MachineID {
    /// The file, `/etc/machine-id`. For tests only, `KEYCHAIN_MACHINE_ID_FILE` names another
    /// (read once per process), so that a test can play a machine whose id changed.
    static let processLocation: URL = {
        if let path = ProcessEnvironment.variables["KEYCHAIN_MACHINE_ID_FILE"], path.hasPrefix("/") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: "/etc/machine-id")
    }()

    /// More than any machine id: a larger file is not one, and is not read to its end.
    static let sizeLimit = 4096

    /// What to do about a machine id file that is there but cannot be read.
    private static func advice(_ url: URL) -> String {
        "it must be a regular file every user may read (chmod 444 \(url.path), as systemd-machine-id-setup leaves it)"
    }

    /// The file's bytes as they are (the newline included), or empty where there is none.
    /// It may be a link (some systems link it elsewhere); it must lead to a regular file of at
    /// most ``sizeLimit`` bytes, read without waiting on a FIFO.
    static func read(at url: URL = processLocation) throws(KeychainError) -> Data {
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return Data() }
            throw .notAvailable("cannot read this machine's id \(url.path) (\(errnoText())), which binds the keychain's "
                                + "ThisDeviceOnly keys to this machine: \(advice(url))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .notAvailable("this machine's id \(url.path) is not a regular file: \(advice(url))")
        }
        return try PrivateFile.readAll(fd, limit: sizeLimit, path: url.path, role: "machine id")
    }
}
