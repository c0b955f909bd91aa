import Foundation
import Synchronization

/// The process-wide registry of open stores: one per keychain, shared by every call of
/// the process, closed at exit.
extension KeychainStore {
    static let openStores = Mutex<[KeychainFiles: KeychainStore]>([:])

    /// The process-wide store for a keychain, opened on first use. With `create`, a keychain
    /// that does not exist is created without a password (as the login keychain is);
    /// without it, that is errSecNoSuchKeychain.
    package static func shared(_ files: KeychainFiles, create: Bool = true) throws(KeychainError) -> KeychainStore {
        _ = closesAtExit
        return try openStores.withLock { (stores) throws(KeychainError) -> KeychainStore in
            if let store = stores[files] { return store }
            guard create || exists(files) else { throw .noSuchKeychain }
            let store = try open(files, creating: nil, mustExist: !create)
            stores[files] = store
            return store
        }
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
