import Crypto
import Foundation

/// The secret that binds ThisDeviceOnly classes to this machine.
///
/// It is 32 random bytes in a file outside the keychain folder (see
/// ``KeychainFiles/machineSecret``), mixed with `/etc/machine-id` where there is one. A
/// keychain folder copied elsewhere, or an export, carries neither, so the class keys of
/// `aku`, `cku`, `dku` and `akpu` do not open there; copying the user's whole home to
/// another machine still leaves the other machine's id out.
enum MachineSecret {
    /// `$XDG_STATE_HOME/swift-keychain/machine-secret`, or under `~/.local/state` when unset.
    static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGFolder.state.url(environment: environment).appendingPathComponent("swift-keychain/machine-secret")
    }

    /// This process's ``defaultLocation(environment:)``, read once.
    static let processDefaultLocation = defaultLocation()

    /// The secret, created (with its folder, 0700) on first use.
    static func load(at url: URL) throws(KeychainError) -> SymmetricKey {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .notAvailable("cannot create the folder \(folder.path)")
        }
        let secret = try SecretKeyFile.load(at: url, create: true, role: "machine secret")
        let machineID = (try? Data(contentsOf: URL(fileURLWithPath: "/etc/machine-id"))) ?? Data()
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: secret, salt: machineID,
            info: Data("swift-keychain machine secret".utf8), outputByteCount: 32)
    }
}
