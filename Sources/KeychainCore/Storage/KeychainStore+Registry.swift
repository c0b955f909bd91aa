import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one door to a keychain's store: the process-wide registry of open stores, one per
/// database file, shared by every call of the process and closed at exit.
///
/// Every program of the package (the `Security` API, the Secret Service provider, sync, the
/// login helper, keychainctl) obtains its stores here, and only here. A second store of a
/// database in one process would open and close the file while the first one's connection
/// holds SQLite's POSIX locks on it, and closing any descriptor of a file drops all of the
/// process's locks on that file: another process would then take the database as unused
/// and, for one, remove its write-ahead log under the first connection. So the registry is
/// keyed by the file itself (``DatabaseIdentity``), not by how its path is spelled.
extension KeychainStore {
    static let openStores = Mutex<[DatabaseIdentity: KeychainStore]>([:])

    /// The process-wide store for a keychain, opened on first use. With `create`, a keychain
    /// that does not exist is created without a password (as the login keychain is);
    /// without it, that is errSecNoSuchKeychain.
    ///
    /// Any path to the same database gives the same store, opened by the first path used.
    package static func shared(_ files: KeychainFiles, create: Bool = true) throws(KeychainError) -> KeychainStore {
        _ = closesAtExit
        return try openStores.withLock { (stores) throws(KeychainError) -> KeychainStore in
            if let identity = DatabaseIdentity(of: files), let store = stores[identity] { return store }
            guard create || exists(files) else { throw .noSuchKeychain }
            return try register(open(files, creating: nil, mustExist: !create), in: &stores)
        }
    }

    /// Creates a keychain, with a password or without (nil or empty), and leaves it
    /// unlocked; the store is the process's store of it from then on (see
    /// ``shared(_:create:)``). errSecDuplicateKeychain when one exists under that name, also
    /// when another process creates it at the same moment: of racing creates, exactly one
    /// succeeds.
    ///
    /// The keybag, the password's parameters and the settings are written in one
    /// transaction, so the keys a password protects never reach a file wrapped otherwise.
    ///
    /// - Parameter kdf: the password's scrypt parameters; the default costs about 170 ms a
    ///   guess here. Tests may pass ``PasswordKDF/fastForTesting()``.
    package static func create(_ files: KeychainFiles, password: Data?, kdf: PasswordKDF = .standard(),
                              settings: KeychainSettings = .default) throws(KeychainError) -> KeychainStore {
        _ = closesAtExit
        return try openStores.withLock { (stores) throws(KeychainError) -> KeychainStore in
            if let identity = DatabaseIdentity(of: files), stores[identity] != nil { throw .duplicateKeychain }
            let creation = KeychainCreation(password: password, kdf: kdf, settings: settings)
            return try register(open(files, creating: creation), in: &stores)
        }
    }

    /// Deletes a keychain's files and forgets its unlocks. errSecNoSuchKeychain when there is
    /// none. Another process that has it open finds it gone at its next ``shared(_:create:)``
    /// (the file is not the one its store has open); a store it holds on to keeps writing to
    /// the deleted files.
    ///
    /// A keychain whose device key is sealed to a TPM that cannot unseal it here (another
    /// machine's, or this one's before it was cleared) opens nothing, yet its files are
    /// deleted when asked: nothing of it was unlocked this boot to forget.
    package static func delete(_ files: KeychainFiles) throws(KeychainError) {
        try openStores.withLock { (stores) throws(KeychainError) in
            guard exists(files) else { throw .noSuchKeychain }
            var store = DatabaseIdentity(of: files).flatMap { stores.removeValue(forKey: $0) }
            if store == nil {
                do throws(KeychainError) {
                    // Opened only to forget its unlocks, and closed below: never registered.
                    store = try open(files)
                } catch {
                    guard (try? DeviceKeyFile.protection(files)) == .tpm else { throw error }
                    keychainLogger.notice("the keychain's sealed device key does not unseal here; its files are deleted unopened",
                                          metadata: ["path": "\(files.database.path)", "reason": "\(error)"])
                }
            }
            if let store {
                store.classKeys.forgetSinceBoot()
                store.classKeys.removeSharedCount()
                store.close()
            }
            for suffix in ["", "-wal", "-shm"] {
                unlink(files.database.path + suffix)
            }
            DeviceKeyFile.forgetUnsealedKey(files)
            unlink(files.deviceKey.path)
            unlink(files.openLock.path)
        }
    }

    /// Records a store just opened under its database's identity and returns the store
    /// that stands for that database from now on.
    private static func register(_ store: KeychainStore,
                                 in stores: inout [DatabaseIdentity: KeychainStore]) throws(KeychainError) -> KeychainStore {
        guard let identity = DatabaseIdentity(of: store.files) else {
            store.close()
            throw .notAvailable("the keychain database \(store.files.database.path) vanished while it was opened")
        }
        stores[identity] = store
        return store
    }

    /// Closes the shared stores when the process exits. The last connection to close
    /// checkpoints the write-ahead log and deletes it; left behind, every later process
    /// that opens the keychain alone would read the whole log to rebuild its index first:
    /// 30 ms for 32 MiB of log left by a burst of writes, measured with strace.
    static let closesAtExit: Void = {
        atexit { KeychainStore.closeSharedStores() }
    }()

    private static func closeSharedStores() {
        let stores = openStores.withLock { stores in
            defer { stores.removeAll() }
            return Array(stores.values)
        }
        for store in stores { store.close() }
    }
}
