import Foundation
import KeychainCore
#if canImport(Glibc)
import Glibc
#endif

/// A lock file beside the keychain, `<name>.<suffix>`, held with flock while this object
/// lives and dropped by the kernel if the process dies. Two serve sync:
/// - ``agent``: one agent per keychain, held for the agent's whole life;
/// - ``pass``: a pass of the agent and a removal (`sync remove`, `sync leave`, which pass and
///   then publish) take turns, so that neither moves the state's cursor back under the other
///   or reads the same records twice.
///
/// flock belongs to the open file, so two of these in one process also exclude each other.
package final class SyncLockFile {
    package enum Kind: String, Sendable {
        case agent = "keychain-sync-lock"
        case pass = "keychain-sync-pass-lock"
    }

    private let fd: Int32
    let path: String

    private init(files: KeychainFiles, kind: Kind) throws(SyncFailure) {
        path = files.directory.appendingPathComponent("\(files.name).\(kind.rawValue)").path
        do {
            guard let opened = try PrivateFile.open(path, flags: O_RDWR | O_CREAT, role: "sync lock file") else {
                throw SyncFailure.damaged("the lock file \(path) vanished while it was created")
            }
            fd = opened
        } catch let error as SyncFailure {
            throw error
        } catch let error as KeychainError {
            throw .keychain(error)
        } catch {
            throw .damaged("cannot open \(path)")
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }

    private func tryLock() -> Bool { flock(fd, LOCK_EX | LOCK_NB) == 0 }

    /// Gives the lock back now, rather than when this object goes (which a debug build
    /// delays to the end of the scope that holds it); closing it later unlocks nothing more.
    package func unlock() {
        flock(fd, LOCK_UN)
    }

    /// Takes the lock, or nil when another holds it.
    package static func take(_ kind: Kind, files: KeychainFiles) throws(SyncFailure) -> SyncLockFile? {
        let lock = try SyncLockFile(files: files, kind: kind)
        return lock.tryLock() ? lock : nil
    }

    /// Takes the lock, waiting while another holds it: polled, so that no thread blocks and
    /// the wait ends when the task is cancelled.
    package static func wait(for kind: Kind, files: KeychainFiles) async throws(SyncFailure) -> SyncLockFile {
        let lock = try SyncLockFile(files: files, kind: kind)
        while !lock.tryLock() {
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                throw .usage("stopped while waiting for \(lock.path)")
            }
        }
        return lock
    }
}
