import KeychainCore

/// A collection's Created and Modified (seconds since 1970), read from its keychain's files
/// without following links, so that they cost no decryption and hold across restarts.
///
/// Created is the database file's birth time where the filesystem records one (statx
/// STATX_BTIME: ext4, XFS, btrfs, tmpfs; see ``FileTimes``); elsewhere it is Modified, the
/// earliest time known that the collection existed. Modified is the last change of the
/// database or of its write-ahead log: every item write, label change or password change
/// lands in one of them. An empty log, which SQLite makes on opening, is no change.
extension KeychainItems {
    func times() throws(BusFailure) -> (created: UInt64, modified: UInt64) {
        // The default keychain is made on its first use, as its Label and Locked are.
        do throws(KeychainError) {
            _ = try store()
        } catch .noSuchKeychain {
            throw .noSuchObject(SecretObject.collectionPath(name))
        } catch {
            throw .failed("cannot open the keychain \(name): \(error)")
        }
        let database = keychainPath
        guard let file = try fileTimes(database) else { throw .noSuchObject(SecretObject.collectionPath(name)) }
        var modified = file.modified
        if let log = try fileTimes(database + "-wal"), log.size > 0 { modified = max(modified, log.modified) }
        let seconds = UInt64(max(0, modified))
        return (file.birth.map { UInt64($0) } ?? seconds, seconds)
    }

    /// The times of the keychain's file at `path`; nil when it is not there.
    private func fileTimes(_ path: String) throws(BusFailure) -> FileTimes? {
        switch FileTimes.of(path) {
        case .success(let times): return times
        case .failure(let error): throw .failed("cannot read the times of the keychain \(name): \(error.text)")
        }
    }
}
