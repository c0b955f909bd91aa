import Crypto
import Foundation
import Logging
import Synchronization

/// The secret that binds ThisDeviceOnly classes to this machine.
///
/// It is 32 random bytes in a file outside the keychain folder (see
/// ``KeychainFiles/machineSecret``), mixed with `/etc/machine-id` where there is one. A
/// keychain folder copied elsewhere, or an export, carries neither, so the class keys of
/// `aku`, `cku`, `dku` and `akpu` do not open there; copying the user's whole home to
/// another machine still leaves the other machine's id out.
///
/// Beside the secret, `<secret>.machine-id` records which machine id it was first combined
/// with (an HMAC of the id under the secret, so the file does not reveal the id). When the id
/// has changed since (a cloned virtual machine, a container, a regenerated id), the
/// ThisDeviceOnly items made before no longer open, and the library says so in a warning,
/// once per process, rather than leaving them silently unreadable.
enum MachineSecret {
    /// `$XDG_STATE_HOME/swift-keychain/machine-secret`, or under `~/.local/state` when unset.
    static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGFolder.state.url(environment: environment).appendingPathComponent("swift-keychain/machine-secret")
    }

    /// This process's ``defaultLocation(environment:)``, read once.
    static let processDefaultLocation = defaultLocation(environment: ProcessEnvironment.variables)

    /// The secret, created (with its folder, 0700, and the record of the machine id) on first
    /// use, combined with the machine id of `machineID`.
    static func load(at url: URL, machineID: URL = MachineID.processLocation) throws(KeychainError) -> SymmetricKey {
        try PrivateFolder.prepare(url.deletingLastPathComponent(), role: "machine secret's folder")
        let secret = try SecretKeyFile.load(at: url, create: true, role: "machine secret")
        let id = try MachineID.read(at: machineID)
        warnIfChanged(id, secret: secret, at: url, machineID: machineID)
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: secret, salt: id,
            info: Data(utf8Of: "swift-keychain machine secret"), outputByteCount: 32)
    }

    /// The secret at one location, loaded when first needed and then kept: one operation
    /// (a create, an unlock, a password change) wraps or opens several machine-bound keys,
    /// and each load reads the secret, the machine id and its record, and runs an HKDF.
    final class Once: Sendable {
        let url: URL
        private let loaded = Mutex<SymmetricKey?>(nil)

        init(_ url: URL) {
            self.url = url
        }

        func key() throws(KeychainError) -> SymmetricKey {
            if let key = loaded.withLock({ $0 }) { return key }
            let key = try MachineSecret.load(at: url)
            loaded.withLock { $0 = key }
            return key
        }
    }

    /// The record of the machine id the secret at `url` was first combined with.
    static func recordLocation(of url: URL) -> URL { url.appendingPathExtension("machine-id") }

    /// Whether `id` differs from the one recorded beside the secret at `url`. Without a record
    /// (a secret made before records were kept), `id` is recorded now.
    static func machineIDChanged(_ id: Data, secret: SymmetricKey, at url: URL) throws(KeychainError) -> Bool {
        let record = recordLocation(of: url).path
        let digest = Data(HMAC<SHA256>.authenticationCode(for: Data(utf8Of: "swift-keychain machine id\n") + id, using: secret))
        let role = "machine id record"
        if let recorded = try PrivateFile.read(record, limit: digest.count, role: role) { return recorded != digest }
        try PrivateFile.install(digest, at: record, role: role)
        // Another process may have recorded first, on another id.
        return try PrivateFile.read(record, limit: digest.count, role: role) != digest
    }

    /// The secrets whose changed machine id this process reported.
    private static let reported = Mutex<Set<String>>([])

    /// Logs, once per process for each secret, that the machine id changed, what that means
    /// and what to do. Never fails the load: the record only serves this warning.
    private static func warnIfChanged(_ id: Data, secret: SymmetricKey, at url: URL, machineID: URL) {
        let metadata: Logger.Metadata = ["machine-secret": "\(url.path)", "machine-id": "\(machineID.path)"]
        let message: Logger.Message
        do {
            guard try machineIDChanged(id, secret: secret, at: url) else { return }
            message = """
                this machine's id (\(machineID.path)) changed since the machine secret was made: ThisDeviceOnly \
                items made before the change no longer open here; restore the old \(machineID.path) to read \
                them, or delete and re-add them
                """
        } catch {
            message = "cannot check whether this machine's id changed: \(error)"
        }
        guard reported.withLock({ $0.insert(url.path).inserted }) else { return }
        keychainLogger.warning(message, metadata: metadata)
    }
}
