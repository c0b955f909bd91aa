import Foundation
import KeychainCore

/// The systemd user unit that keeps `keychainctl sync run` going for one keychain:
/// `$XDG_CONFIG_HOME/systemd/user/keychain-sync-<name>.service`, naming keychainctl and the
/// keychain by absolute path, restarted after a failure. A file of that name that keychainctl
/// did not write is left alone.
package struct SyncUnitFile: Sendable {
    static let marker = "# Written by keychainctl sync, which rewrites this file."

    package let unitName: String
    let file: MarkedConfigurationFile
    let text: String

    init(executable: String, keychain: KeychainFiles, environment: [String: String]) throws(SyncFailure) {
        let database = keychain.database.path
        for path in [executable, database] {
            if let refused = path.unicodeScalars.first(where: {
                "\"'\\%$` ".unicodeScalars.contains($0) || $0.value < 0x20 || $0.value == 0x7F
            }) {
                throw .usage("\(path.debugDescription) holds \(String(refused).debugDescription), which a systemd unit cannot name unquoted")
            }
        }
        let safeName = String(keychain.name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "_" })
        unitName = "keychain-sync-\(safeName).service"
        let folder: String
        do {
            folder = try MarkedConfigurationFile.folder("XDG_CONFIG_HOME", default: ".config", environment: environment)
        } catch {
            throw .usage("\(error)")
        }
        file = MarkedConfigurationFile(path: folder + "/systemd/user/" + unitName, marker: Self.marker)
        text = """
            [Unit]
            Description=Keychain sync agent for \(database)
            After=network-online.target

            [Service]
            ExecStart=\(executable) sync run --keychain \(database)
            Restart=on-failure
            RestartSec=5

            [Install]
            WantedBy=default.target

            """
    }

    /// Writes the unit; its path.
    package func install() throws(SyncFailure) -> String {
        do {
            guard try file.isOursOrAbsent() else {
                throw SyncFailure.usage("\(file.path) exists and was not written by keychainctl; leaving it alone")
            }
            try file.write(text)
        } catch let failure as SyncFailure {
            throw failure
        } catch {
            throw .usage("\(error)")
        }
        return file.path
    }
}
