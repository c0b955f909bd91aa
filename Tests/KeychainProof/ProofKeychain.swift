import Foundation
import KeychainCore
import Security

/// What the proof suites know of the keychain itself, beyond its items: its password and
/// its auto-lock interval. A new keychain has neither.
public struct ProofKeychainState: Equatable, Sendable {
    public var password: String?
    public var lockInterval: UInt32?

    public init(password: String? = nil, lockInterval: UInt32? = nil) {
        self.password = password
        self.lockInterval = lockInterval
    }
}

/// The changes of the keychain itself that the writers make (``CrashOperation/settings``,
/// ``CrashOperation/password``, ``CrashOperation/relock``, ``CrashOperation/importArchive``),
/// on the default keychain of the environment, through the core with the tests' scrypt cost
/// so that a run can make many.
enum ProofKeychain {
    static func store() throws(KeychainError) -> KeychainStore {
        try SecKeychain(files: KeychainEnvironment.current.files).store()
    }

    /// The Keychain Services status of one change.
    static func perform(_ operation: CrashOperation) -> OSStatus {
        do throws(KeychainError) {
            let store = try store()
            switch operation {
            case .settings(let interval):
                try store.setSettings(KeychainSettings(lockInterval: interval))
            case .password(let old, let new):
                try store.changePassword(from: old.map { Data($0.utf8) }, to: new.map { Data($0.utf8) },
                                         kdf: .fastForTesting())
            case .relock(let password):
                store.lock()
                try store.unlock(password: password.map { Data($0.utf8) })
            case .importArchive(let group):
                guard group == ProofArchive.group, let archive = ProofArchive.load() else { return errSecParam }
                _ = try store.importArchive(archive, password: Data(ProofArchive.password.utf8), policy: .replaceExisting)
            default:
                return errSecParam
            }
            return errSecSuccess
        } catch {
            return error.status
        }
    }

    /// Unlocks the keychain of a fresh process (nothing unlocked, as after a reboot) with the
    /// password of the first of `candidates` whose password and settings the keychain has;
    /// nil when none fits.
    static func identify(among candidates: [ProofKeychainState]) -> ProofKeychainState? {
        guard let store = try? store() else { return nil }
        for candidate in candidates {
            guard (try? store.unlock(password: candidate.password.map { Data($0.utf8) })) != nil,
                  (try? store.hasPassword) == (candidate.password != nil),
                  let settings = try? store.settings(), settings.lockInterval == candidate.lockInterval
            else { continue }
            return candidate
        }
        return nil
    }
}

/// The archive the writers import: a few items of one group, exported from a keychain of
/// their own under a fixed password; its path is `PROOF_ARCHIVE` in the environment.
public enum ProofArchive {
    static let group = CrashWriter.groups[2]
    static let password = "archive-password"
    /// Account and token of each item; the accounts are ones the writers use too, so an
    /// import replaces items as well as adding them. They carry the writers' description,
    /// so that a delete naming it removes them as it removes the others.
    static let items: [String: String] = ["a0": "imported.0", "a1": "imported.1", "a2": "imported.2", "a3": "imported.3"]
    public static let environmentVariable = "PROOF_ARCHIVE"

    static func load() -> Data? {
        guard let path = ProcessInfo.processInfo.environment[environmentVariable] else { return nil }
        return FileManager.default.contents(atPath: path)
    }

    /// Writes the archive to `url` in a worker process (`proof-archive`), whose items get the
    /// access group the writers hold.
    public static func make(at url: URL, executable: URL, accessGroups: String) throws {
        var worker = try WorkerProcess(executable, ["proof-archive", url.path],
                                       dataHome: url.deletingLastPathComponent().appendingPathComponent("archive-home"),
                                       accessGroups: accessGroups)
        _ = worker.finish()
        guard worker.terminationStatus == 0 else { throw ProofFailure("cannot make the archive (status \(worker.terminationStatus))") }
    }

    /// Writes the archive to `url`, through a keychain made for it in `url`'s folder.
    static func make(at url: URL) throws {
        let files = KeychainFiles(directory: url.deletingLastPathComponent().appendingPathComponent("archive-source"),
                                  name: "source")
        let source = try KeychainStore.create(files, password: nil, kdf: .fastForTesting())
        for (account, token) in items {
            let status = ProofItems.add(service: group, account: account, token: token,
                                        extra: [kSecUseKeychain as String: SecKeychain(files: files),
                                                kSecAttrDescription as String: CrashWriter.description])
            guard status == errSecSuccess else { throw ProofFailure("cannot fill the archive's keychain: \(status)") }
        }
        let archive = try source.exportArchive(password: Data(password.utf8), kdf: .fastForTesting())
        try archive.archive.write(to: url)
    }
}
