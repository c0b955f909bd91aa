import Foundation
import KeychainCore

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
            do {
                return try MarkedConfigurationFile.folder(variable, default: relative, environment: environment)
            } catch {
                throw InstallFailure(error.description)
            }
        }
        self.executable = executable
        busServiceFile = try folder("XDG_DATA_HOME", default: ".local/share") + "/dbus-1/services/org.freedesktop.secrets.service"
        systemdUnitFile = try folder("XDG_CONFIG_HOME", default: ".config") + "/systemd/user/" + Self.unitName
    }

    /// The activation file's text: the bus starts `Exec` itself, or asks systemd for the
    /// unit when it runs under systemd.
    public var busServiceText: String {
        """
        [D-BUS Service]
        Name=\(SecretServiceProvider.busName)
        Exec=\(executable)
        SystemdService=\(Self.unitName)

        """
    }

    /// The unit's text: started by D-Bus activation (Type=dbus: ready once it owns the name).
    public var systemdUnitText: String {
        """
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
        do {
            if !force {
                for (path, _) in files where try !MarkedConfigurationFile(path: path, marker: Self.marker).isOursOrAbsent() {
                    throw InstallFailure("\(path) exists and was not written by keychain-secret-service; "
                                         + "leaving it alone (run keychain-secret-service --install --force to replace it)")
                }
            }
            for (path, text) in files { try MarkedConfigurationFile(path: path, marker: Self.marker).write(text) }
        } catch let failure as InstallFailure {
            throw failure
        } catch {
            throw InstallFailure("\(error)")
        }
        return files.map(\.0)
    }
}
