import Foundation
import KeychainCore
import Security
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Where the fuzz targets run: a scratch folder (removed at exit, with the keychains'
/// unlocks) that is the process's working directory and `XDG_DATA_HOME`, so that nothing a
/// target does (a keychain created or deleted, an archive written) can reach the user's
/// files; no kernel keyring, which thousands of keychains would fill; and no terminal, so
/// that a command that prompts reads the end of standard input instead of waiting.
///
/// The process must be started without a controlling terminal (`setsid`) and with standard
/// input that is not a terminal (`</dev/null`): ``enter()`` refuses otherwise.
public enum FuzzSandbox {
    /// The scratch folder, once entered.
    nonisolated(unsafe) public private(set) static var folder: URL?

    public enum Refusal: Error, CustomStringConvertible {
        case terminal, standardInputIsTerminal, folder(String)

        public var description: String {
            switch self {
            case .terminal:
                "the process has a controlling terminal, where keychainctl's prompts would wait: start it with setsid"
            case .standardInputIsTerminal:
                "standard input is a terminal, which --password-stdin would read: redirect it from /dev/null"
            case .folder(let reason): "cannot make the scratch folder: \(reason)"
            }
        }
    }

    /// Enters the sandbox; call once, before the first input and before anything else reads
    /// the environment.
    public static func enter() throws(Refusal) {
        guard folder == nil else { return }
        let terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        if terminal >= 0 {
            close(terminal)
            throw .terminal
        }
        guard isatty(STDIN_FILENO) == 0 else { throw .standardInputIsTerminal }
        let scratch = TestScratch.folder("libfuzz")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw .folder("\(error)")
        }
        guard chdir(scratch.path) == 0 else { throw .folder("chdir: \(String(cString: strerror(errno)))") }
        setenv("XDG_DATA_HOME", scratch.path, 1)
        setenv("KEYCHAIN_NO_KERNEL_KEYRING", "1", 1)
        setenv("KEYCHAIN_ACCESS_GROUPS", FuzzSandbox.accessGroups.joined(separator: ","), 1)
        folder = scratch
    }

    /// The access groups of the fuzzed calls: an app's own and a shared one.
    static let accessGroups = ["fuzz.app", "fuzz.group"]

    /// The folder of the sandbox's keychains, for a target.
    static var keychains: URL {
        guard let folder else { fatalError("a fuzz target ran before FuzzSandbox.enter()") }
        return folder.appendingPathComponent("keychains")
    }

    /// Runs `body` with the SecItem calls going to the sandbox's default keychain.
    static func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        let directory = keychains
        let environment = KeychainEnvironment(
            directory: directory, keychainName: KeychainEnvironment.defaultKeychainName(in: directory),
            accessGroups: accessGroups)
        return try KeychainEnvironment.withValue(environment, operation: body)
    }

    /// Deletes every keychain the sandbox holds, as SecKeychainDelete does (closing the
    /// process's store and removing its shared lock count), so that the next input starts
    /// from nothing: libFuzzer's coverage is only meaningful when an input does the same
    /// every time.
    static func reset() {
        let folder = keychains
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(".keychain-db") {
            let keychain = SecKeychain(files: KeychainFiles(directory: folder, name: String(name.dropLast(".keychain-db".count))))
            _ = SecKeychainDelete(keychain)
        }
        // The keychains folder, and whatever else an input wrote in the working directory.
        guard let sandbox = self.folder else { return }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: sandbox.path)) ?? [] {
            try? FileManager.default.removeItem(at: sandbox.appendingPathComponent(name))
        }
    }
}
