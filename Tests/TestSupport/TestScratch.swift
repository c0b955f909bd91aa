import Foundation
#if canImport(Glibc)
import Glibc
#endif
#if os(Linux)
import KeychainCore
#endif
internal import CScratchHomes

/// Folders for a test process's keychains and files, all inside one folder that is removed
/// when the process exits, with the keychains' unlocks in the kernel keyring. The suites make hundreds of keychains, and the example tests
/// copies of programs (87 MB each), which used to stay in the temporary directory after
/// every run.
public enum TestScratch {
    /// A new folder name, unique in this process, inside its scratch folder. Nothing is
    /// created: the code under test creates what it needs, as it would in a real folder.
    public static func folder(_ purpose: String) -> URL {
        root.appendingPathComponent("\(purpose)-\(UUID().uuidString)")
    }

    /// The folder of this process's `XDG_DATA_HOME` (`data`) and `XDG_STATE_HOME` (`state`),
    /// set before main (CScratchHomes) and shared with the programs it starts, so that no test
    /// reads or writes the user's keychains or machine secret; nil when it could not be made.
    public static var homes: URL? {
        swift_keychain_tests_scratch_homes().map { URL(fileURLWithPath: String(cString: $0)) }
    }

    /// The scratch folders' name: the prefix, the process id, a dash and a UUID.
    private static let prefix = "swift-keychain-tests-"

    /// Removes, from `folder`, the scratch folders of test processes that ended without their
    /// exit handler (killed, or interrupted with Ctrl-C): each held a run's keychains and
    /// copies of programs, several gigabytes, and filled the disk after a few such runs. Only
    /// folders of this user whose process is gone are removed (a process id that was reused
    /// keeps its folder); links and files of that name are left alone. Returns what it removed.
    @discardableResult
    public static func removeFoldersOfEndedRuns(in folder: URL) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, pid != getpid()
            else { continue }
            // Gone: signal 0 finds no such process.
            guard kill(pid, 0) == -1, errno == ESRCH else { continue }
            let path = folder.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid() else { continue }
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(name) }
        }
        return removed
    }

    private static let root: URL = {
        removeFoldersOfEndedRuns(in: FileManager.default.temporaryDirectory)
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        scratchRoot = strdup(root.path)
        atexit {
            #if os(Linux)
            // The unlocks of the keychains made here would stay in the kernel keyring.
            KeychainStore.forgetUnlocksOfKeychainsUsedByThisProcess()
            #endif
            guard let scratchRoot else { return }
            try? FileManager.default.removeItem(atPath: String(cString: scratchRoot))
        }
        return root
    }()
}

/// The scratch folder's path for the exit handler, which can capture nothing. Written once,
/// before the handler is registered.
nonisolated(unsafe) private var scratchRoot: UnsafeMutablePointer<CChar>?
