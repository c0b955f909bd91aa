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

    private static let root: URL = {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keychain-tests-\(getpid())-\(UUID().uuidString)")
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
