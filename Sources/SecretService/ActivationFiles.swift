import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The two files that start the provider on the first call to `org.freedesktop.secrets`:
/// the session bus's activation file (`$XDG_DATA_HOME/dbus-1/services/org.freedesktop.secrets.service`)
/// and a systemd user unit (`$XDG_CONFIG_HOME/systemd/user/keychain-secret-service.service`),
/// both naming the provider's executable by its absolute path.
///
/// A file the provider did not write (another provider's, the user's own) is replaced only
/// when asked to (`force`); the provider's files start with ``marker``. Nothing is written
/// unless both files can be.
public struct ActivationFiles: Sendable {
    /// The first line of every file the provider writes: how it recognises its own.
    public static let marker = "# Written by keychain-secret-service --install, which rewrites this file."
    /// The systemd user unit's name.
    public static let unitName = "keychain-secret-service.service"

    /// The provider's executable, by absolute path.
    public let executable: String
    /// The session bus's activation file.
    public let busServiceFile: String
    /// The systemd user unit.
    public let systemdUnitFile: String

    /// The files for `executable` in the folders `environment` names (`XDG_DATA_HOME` and
    /// `XDG_CONFIG_HOME` when absolute, else under `HOME`).
    public init(executable: String, environment: [String: String]) throws(InstallFailure) {
        guard executable.hasPrefix("/") else {
            throw InstallFailure("the provider's executable must be named by an absolute path, not '\(executable)'")
        }
        // Characters the D-Bus Exec line or systemd's ExecStart would read as quoting,
        // escapes or specifiers: such a path is refused rather than half-quoted.
        if let refused = executable.unicodeScalars.first(where: {
            "\"'\\%$` ".unicodeScalars.contains($0) || $0.value < 0x20 || $0.value == 0x7F
        }) {
            throw InstallFailure("the provider's path \(executable.debugDescription) holds \(String(refused).debugDescription), "
                                 + "which activation files cannot name unquoted; move the program to a plain path")
        }
        func folder(_ variable: String, default relative: String) throws(InstallFailure) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            guard let home = environment["HOME"], home.hasPrefix("/") else {
                throw InstallFailure("neither \(variable) nor HOME names an absolute folder to install into")
            }
            return home + "/" + relative
        }
        self.executable = executable
        busServiceFile = try folder("XDG_DATA_HOME", default: ".local/share") + "/dbus-1/services/org.freedesktop.secrets.service"
        systemdUnitFile = try folder("XDG_CONFIG_HOME", default: ".config") + "/systemd/user/" + Self.unitName
    }

    /// The activation file's text: the bus starts `Exec` itself, or asks systemd for the
    /// unit when it runs under systemd.
    public var busServiceText: String {
        """
        \(Self.marker)
        [D-BUS Service]
        Name=\(SecretServiceProvider.busName)
        Exec=\(executable)
        SystemdService=\(Self.unitName)

        """
    }

    /// The unit's text: started by D-Bus activation (Type=dbus: ready once it owns the name).
    public var systemdUnitText: String {
        """
        \(Self.marker)
        [Unit]
        Description=Secret Service provider over the keychain (org.freedesktop.secrets)

        [Service]
        Type=dbus
        BusName=\(SecretServiceProvider.busName)
        ExecStart=\(executable)

        """
    }

    /// Writes both files, each replaced whole (a new file renamed over the old); the paths
    /// written. Fails, writing nothing, when either file exists and is not the provider's,
    /// unless `force`.
    @discardableResult
    public func install(force: Bool) throws(InstallFailure) -> [String] {
        let files = [(busServiceFile, busServiceText), (systemdUnitFile, systemdUnitText)]
        if !force {
            for (path, _) in files where try !Self.isOursOrAbsent(path) {
                throw InstallFailure("\(path) exists and was not written by keychain-secret-service; "
                                     + "leaving it alone (run keychain-secret-service --install --force to replace it)")
            }
        }
        for (path, text) in files { try Self.write(text, to: path) }
        return files.map(\.0)
    }

    /// Whether `path` is missing, or a regular file (not a link) starting with ``marker``.
    static func isOursOrAbsent(_ path: String) throws(InstallFailure) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return true }
            // ELOOP: a symbolic link, which the provider never writes.
            if errno == ELOOP { return false }
            throw InstallFailure("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var information = stat()
        guard fstat(descriptor, &information) == 0, information.st_mode & S_IFMT == S_IFREG else { return false }
        let expected = Array((marker + "\n").utf8)
        var start = [UInt8](repeating: 0, count: expected.count)
        var count = 0
        while count < start.count {
            let read = start.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { break }
            count += read
        }
        return count == expected.count && start == expected
    }

    /// Writes `text` to a new file beside `path` and renames it over `path`, so that a reader
    /// sees the old file or the new one, whole. Missing folders are made (0755: nothing in
    /// them is secret); existing ones are left as they are.
    static func write(_ text: String, to path: String) throws(InstallFailure) {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        } catch {
            throw InstallFailure("cannot make the folder \(folder): \(error.localizedDescription)")
        }
        let temporary = "\(folder)/.\((path as NSString).lastPathComponent).\(getpid()).new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw InstallFailure("cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        let bytes = Array(text.utf8)
        var written = 0
        var failure: String?
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                failure = String(cString: strerror(errno))
                break
            }
            written += count
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw InstallFailure("cannot write \(path): \(failure)")
        }
    }
}
